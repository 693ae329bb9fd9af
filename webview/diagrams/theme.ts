// Theme-true diagrams: reads VS Code's colours from the webview's CSS variables, turns them into the hex values
// Mermaid's `base` theme requires, and watches the body class VS Code switches when the theme changes.
import type { ThemeKind } from '../../src/shared/protocol';

/** The active theme kind from the body classes (high-contrast-light also carries vscode-high-contrast). */
export function currentThemeKind(body: HTMLElement = document.body): ThemeKind {
  const classes = body.classList;
  if (classes.contains('vscode-high-contrast-light')) return 'highContrastLight';
  if (classes.contains('vscode-high-contrast')) return 'highContrast';
  if (classes.contains('vscode-light')) return 'light';
  if (classes.contains('vscode-dark')) return 'dark';
  return 'dark';
}

export function isDarkTheme(kind: ThemeKind): boolean {
  return kind === 'dark' || kind === 'highContrast';
}

let colourContext: CanvasRenderingContext2D | null | undefined;

/**
 * Converts any CSS colour (names, rgb(), rgba(), #rgb, #rrggbbaa) to #rrggbb. Translucent colours are blended over
 * `over` because Mermaid derives shades from the value and cannot read alpha.
 */
export function toHex(colour: string, over = '#ffffff'): string | undefined {
  const parsed = parseColour(colour);
  if (!parsed) return undefined;
  let [red, green, blue, alpha] = parsed;
  if (alpha < 1) {
    const base = parseColour(over) ?? [255, 255, 255, 1];
    red = red * alpha + base[0] * (1 - alpha);
    green = green * alpha + base[1] * (1 - alpha);
    blue = blue * alpha + base[2] * (1 - alpha);
  }
  return `#${[red, green, blue].map((channel) => Math.round(channel).toString(16).padStart(2, '0')).join('')}`;
}

function parseColour(colour: string): [number, number, number, number] | undefined {
  const trimmed = colour.trim();
  if (trimmed === '') return undefined;
  if (colourContext === undefined) colourContext = document.createElement('canvas').getContext('2d');
  if (!colourContext) return undefined;
  // The canvas normalises every CSS colour syntax to #rrggbb or rgba(); a sentinel detects unparsable input.
  colourContext.fillStyle = '#010203';
  colourContext.fillStyle = trimmed;
  const normal = String(colourContext.fillStyle);
  if (normal === '#010203' && trimmed.toLowerCase() !== '#010203') return undefined;
  if (normal.startsWith('#')) {
    return [parseInt(normal.slice(1, 3), 16), parseInt(normal.slice(3, 5), 16), parseInt(normal.slice(5, 7), 16), 1];
  }
  const match = /rgba?\(([^)]+)\)/.exec(normal);
  if (!match) return undefined;
  const parts = match[1].split(',').map((part) => Number.parseFloat(part));
  return [parts[0], parts[1], parts[2], parts[3] ?? 1];
}

/** Mermaid `base` theme variables from the VS Code colours in force. */
export function mermaidThemeVariables(kind: ThemeKind, element: HTMLElement = document.body): Record<string, string | boolean> {
  const style = getComputedStyle(element);
  const fallbackBackground = isDarkTheme(kind) ? '#1e1e1e' : '#ffffff';
  const fallbackForeground = isDarkTheme(kind) ? '#cccccc' : '#333333';
  const read = (name: string, fallback: string, over?: string): string =>
    toHex(style.getPropertyValue(name), over ?? background) ?? fallback;
  const background = toHex(style.getPropertyValue('--vscode-editor-background'), fallbackBackground) ?? fallbackBackground;
  const foreground = read('--vscode-editor-foreground', fallbackForeground);
  const highContrast = kind === 'highContrast' || kind === 'highContrastLight';
  const border = highContrast ? read('--vscode-contrastBorder', foreground) : read('--vscode-focusBorder', foreground);
  const nodeFill = read('--vscode-editorWidget-background', background);
  const accent = read('--vscode-charts-blue', border);
  const line = highContrast ? foreground : read('--vscode-descriptionForeground', foreground);
  const charts = ['blue', 'orange', 'green', 'purple', 'red', 'yellow', 'foreground', 'lines'].map((name) =>
    read(`--vscode-charts-${name}`, accent),
  );
  const fontFamily = style.getPropertyValue('--vscode-font-family').trim() || 'sans-serif';
  const variables: Record<string, string | boolean> = {
    darkMode: isDarkTheme(kind),
    background,
    fontFamily,
    primaryColor: nodeFill,
    primaryTextColor: foreground,
    primaryBorderColor: border,
    secondaryColor: read('--vscode-editor-inactiveSelectionBackground', nodeFill),
    secondaryTextColor: foreground,
    secondaryBorderColor: border,
    tertiaryColor: background,
    tertiaryTextColor: foreground,
    tertiaryBorderColor: line,
    lineColor: line,
    textColor: foreground,
    mainBkg: nodeFill,
    nodeBorder: border,
    clusterBkg: background,
    clusterBorder: line,
    edgeLabelBackground: background,
    titleColor: foreground,
    commitLabelColor: foreground,
    commitLabelBackground: nodeFill,
    tagLabelColor: foreground,
    tagLabelBackground: nodeFill,
    tagLabelBorder: border,
  };
  charts.forEach((colour, index) => {
    variables[`git${index}`] = colour;
    variables[`gitBranchLabel${index}`] = isDarkTheme(kind) ? '#ffffff' : '#000000';
  });
  return variables;
}

/** Calls `onChange` when VS Code switches theme (it swaps the body class and the CSS variables together). */
export function watchTheme(onChange: (kind: ThemeKind) => void, body: HTMLElement = document.body): () => void {
  let last = currentThemeKind(body);
  let lastStyle = document.documentElement.getAttribute('style') ?? '';
  const check = (): void => {
    const kind = currentThemeKind(body);
    const style = document.documentElement.getAttribute('style') ?? '';
    // Two themes of the same kind (e.g. Dark+ → Monokai) differ only in the variables on <html>.
    if (kind === last && style === lastStyle) return;
    last = kind;
    lastStyle = style;
    onChange(kind);
  };
  const observer = new MutationObserver(check);
  observer.observe(body, { attributes: true, attributeFilter: ['class'] });
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['style'] });
  return () => observer.disconnect();
}
