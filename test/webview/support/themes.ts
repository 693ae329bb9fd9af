// The colour variables VS Code sets on a webview's <html> for each theme kind (a subset: the ones the explorer and
// Mermaid's themeVariables read), with values from VS Code's default themes.
import type { ThemeKind } from '../../../src/shared/protocol';

type Palette = Record<string, string>;

const DARK: Palette = {
  'vscode-font-family': '-apple-system, BlinkMacSystemFont, "Segoe UI", sans-serif',
  'vscode-font-size': '13px',
  'vscode-foreground': '#cccccc',
  'vscode-descriptionForeground': '#9d9d9d',
  'vscode-disabledForeground': 'rgba(204, 204, 204, 0.5)',
  'vscode-editor-background': '#1f1f1f',
  'vscode-editor-foreground': '#cccccc',
  'vscode-sideBar-background': '#181818',
  'vscode-editorWidget-background': '#202020',
  'vscode-editor-inactiveSelectionBackground': '#3a3d41',
  'vscode-editor-selectionBackground': '#264f78',
  'vscode-focusBorder': '#0078d4',
  'vscode-panel-border': '#2b2b2b',
  'vscode-widget-border': '#313131',
  'vscode-badge-background': '#616161',
  'vscode-badge-foreground': '#f8f8f8',
  'vscode-button-background': '#0078d4',
  'vscode-button-foreground': '#ffffff',
  'vscode-button-secondaryBackground': '#313131',
  'vscode-button-secondaryForeground': '#cccccc',
  'vscode-list-activeSelectionBackground': '#04395e',
  'vscode-list-activeSelectionForeground': '#ffffff',
  'vscode-list-inactiveSelectionBackground': '#37373d',
  'vscode-charts-foreground': '#cccccc',
  'vscode-charts-lines': 'rgba(204, 204, 204, 0.5)',
  'vscode-charts-red': '#f14c4c',
  'vscode-charts-blue': '#3794ff',
  'vscode-charts-yellow': '#cca700',
  'vscode-charts-orange': '#d18616',
  'vscode-charts-green': '#89d185',
  'vscode-charts-purple': '#b180d7',
  'vscode-editorWarning-foreground': '#cca700',
  'vscode-inputValidation-warningBackground': '#352a05',
  'vscode-inputValidation-warningBorder': '#b89500',
  'vscode-icon-foreground': '#cccccc',
  'vscode-input-background': '#313131',
  'vscode-input-foreground': '#cccccc',
  'vscode-input-border': '#3c3c3c',
  'vscode-input-placeholderForeground': '#989898',
  'vscode-editor-findMatchBackground': '#9e6a03',
  'vscode-editor-findMatchHighlightBackground': 'rgba(234, 92, 0, 0.33)',
  'vscode-diffEditor-insertedTextBackground': 'rgba(156, 204, 44, 0.2)',
  'vscode-diffEditor-removedTextBackground': 'rgba(255, 0, 0, 0.2)',
  'vscode-dropdown-background': '#313131',
  'vscode-dropdown-foreground': '#cccccc',
  'vscode-dropdown-border': '#3c3c3c',
  'vscode-panel-background': '#181818',
  'vscode-panelTitle-activeBorder': '#0078d4',
  'vscode-panelTitle-activeForeground': '#cccccc',
  'vscode-panelTitle-inactiveForeground': '#9d9d9d',
};

const LIGHT: Palette = {
  ...DARK,
  'vscode-foreground': '#3b3b3b',
  'vscode-descriptionForeground': '#717171',
  'vscode-disabledForeground': 'rgba(97, 97, 97, 0.5)',
  'vscode-editor-background': '#ffffff',
  'vscode-editor-foreground': '#3b3b3b',
  'vscode-sideBar-background': '#f8f8f8',
  'vscode-editorWidget-background': '#f8f8f8',
  'vscode-editor-inactiveSelectionBackground': '#e5ebf1',
  'vscode-editor-selectionBackground': '#add6ff',
  'vscode-focusBorder': '#005fb8',
  'vscode-panel-border': '#e5e5e5',
  'vscode-widget-border': '#e5e5e5',
  'vscode-badge-background': '#cccccc',
  'vscode-badge-foreground': '#3b3b3b',
  'vscode-button-background': '#005fb8',
  'vscode-list-activeSelectionBackground': '#e8e8e8',
  'vscode-list-activeSelectionForeground': '#000000',
  'vscode-list-inactiveSelectionBackground': '#e4e6f1',
  'vscode-charts-foreground': '#616161',
  'vscode-charts-blue': '#1a85ff',
  'vscode-charts-orange': '#d18616',
  'vscode-charts-green': '#388a34',
  'vscode-charts-purple': '#652d90',
  'vscode-editorWarning-foreground': '#bf8803',
  'vscode-inputValidation-warningBackground': '#f6f5d2',
  'vscode-icon-foreground': '#424242',
  'vscode-input-background': '#ffffff',
  'vscode-input-foreground': '#3b3b3b',
  'vscode-input-border': '#cecece',
  'vscode-input-placeholderForeground': '#767676',
  'vscode-editor-findMatchBackground': '#a8ac94',
  'vscode-dropdown-background': '#ffffff',
  'vscode-dropdown-foreground': '#3b3b3b',
  'vscode-dropdown-border': '#cecece',
  'vscode-panel-background': '#f8f8f8',
  'vscode-panelTitle-activeForeground': '#3b3b3b',
  'vscode-panelTitle-inactiveForeground': '#717171',
};

const HIGH_CONTRAST: Palette = {
  ...DARK,
  'vscode-foreground': '#ffffff',
  'vscode-descriptionForeground': 'rgba(255, 255, 255, 0.7)',
  'vscode-editor-background': '#000000',
  'vscode-editor-foreground': '#ffffff',
  'vscode-sideBar-background': '#000000',
  'vscode-editorWidget-background': '#0c141f',
  'vscode-contrastBorder': '#6fc3df',
  'vscode-contrastActiveBorder': '#f38518',
  'vscode-icon-foreground': '#ffffff',
  'vscode-input-background': '#000000',
  'vscode-input-foreground': '#ffffff',
  'vscode-input-border': '#6fc3df',
  'vscode-input-placeholderForeground': 'rgba(255, 255, 255, 0.7)',
  // High contrast themes mark find matches with borders only.
  'vscode-editor-findMatchBackground': 'transparent',
  'vscode-editor-findMatchHighlightBackground': 'transparent',
  'vscode-editor-findMatchBorder': '#f38518',
  'vscode-editor-findMatchHighlightBorder': '#f38518',
  'vscode-focusBorder': '#f38518',
  'vscode-panel-border': '#6fc3df',
  'vscode-badge-background': '#000000',
  'vscode-badge-foreground': '#ffffff',
  'vscode-list-activeSelectionBackground': '#000000',
  'vscode-list-inactiveSelectionBackground': '#000000',
  'vscode-charts-blue': '#3794ff',
  'vscode-charts-orange': '#d18616',
  'vscode-charts-green': '#89d185',
};

const HIGH_CONTRAST_LIGHT: Palette = {
  ...LIGHT,
  'vscode-foreground': '#292929',
  'vscode-editor-background': '#ffffff',
  'vscode-editor-foreground': '#292929',
  'vscode-sideBar-background': '#ffffff',
  'vscode-contrastBorder': '#0f4a85',
  'vscode-contrastActiveBorder': '#b5200d',
  'vscode-icon-foreground': '#292929',
  'vscode-input-background': '#ffffff',
  'vscode-input-foreground': '#292929',
  'vscode-input-border': '#0f4a85',
  'vscode-input-placeholderForeground': 'rgba(41, 41, 41, 0.7)',
  'vscode-editor-findMatchBackground': 'transparent',
  'vscode-editor-findMatchHighlightBackground': 'transparent',
  'vscode-editor-findMatchBorder': '#b5200d',
  'vscode-editor-findMatchHighlightBorder': '#b5200d',
  'vscode-focusBorder': '#006bbd',
  'vscode-panel-border': '#0f4a85',
  'vscode-badge-background': '#0f4a85',
  'vscode-badge-foreground': '#ffffff',
};

export const THEMES: Record<ThemeKind, Palette> = {
  light: LIGHT,
  dark: DARK,
  highContrast: HIGH_CONTRAST,
  highContrastLight: HIGH_CONTRAST_LIGHT,
};

export function themeStyle(kind: ThemeKind): string {
  return Object.entries(THEMES[kind])
    .map(([name, value]) => `--${name}: ${value.replace(/"/g, "'")}`)
    .join('; ');
}

/** VS Code's body classes; high-contrast-light carries both high-contrast classes. */
export function themeBodyClass(kind: ThemeKind): string {
  switch (kind) {
    case 'light':
      return 'vscode-light';
    case 'dark':
      return 'vscode-dark';
    case 'highContrast':
      return 'vscode-high-contrast';
    case 'highContrastLight':
      return 'vscode-high-contrast vscode-high-contrast-light';
  }
}
