// The export entry point used by the editor command, the tree's context menu and the CLI: one function for every
// format. Async so that a large session's progress can reach a progress bar between chunks of work.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SessionSnapshot } from '../engine/model';
import type { DiagramWindowOptions } from '../diagrams/diagramWindow';
import { toLosslessJson, toSequentialThinkingPlusJson } from '../storage/sessionJsonFormats';
import { EXPORT_FORMATS, type ExportFormat } from './formats';
import { sessionHtml, HtmlExportError } from './html';
import { sessionMarkdown } from './markdown';
import { DIAGRAM_KINDS, type DiagramKind } from '../engine/browserSafe/diagramKinds';

export interface ExportProgress {
  /** What is being done now. */
  message: string;
  /** 0–1. */
  fraction: number;
}

export interface ExportOptions {
  /** Pre-rendered diagram SVGs (HTML only), e.g. from the editor's webview. */
  svgs?: Partial<Record<DiagramKind, string>>;
  /** The renderer bundle's text (HTML only); by default read from `rendererPath`. */
  rendererScript?: string;
  /** Where dist/webview/export-render.js is; by default found next to the running bundle. */
  rendererPath?: string;
  diagramWindow?: DiagramWindowOptions;
  onProgress?: (progress: ExportProgress) => void;
  /**
   * Writes the OTLP/JSON trace (`toOtlpJson` of src/telemetry/otlpFile). Given by the caller, which loads the
   * OpenTelemetry SDK only when this format is chosen (the editor from its separate telemetry bundle).
   */
  otlpTrace?: (snapshot: SessionSnapshot) => string | Promise<string>;
}

export async function exportSession(snapshot: SessionSnapshot, format: ExportFormat, options: ExportOptions = {}): Promise<string> {
  const report = options.onProgress ?? (() => {});
  const total = snapshot.thoughts.length;
  // Thoughts are written synchronously; a pause before the heavy part lets a progress UI show the start.
  const onThoughts = (done: number): void =>
    report({ message: `Writing thoughts (${done}/${total})`, fraction: total === 0 ? 1 : done / total });
  report({ message: `Exporting ${total} thoughts as ${format}`, fraction: 0 });
  await yieldToEventLoop();
  let text: string;
  switch (format) {
    case 'md':
      text = sessionMarkdown(snapshot, { diagramWindow: options.diagramWindow, onProgress: onThoughts });
      break;
    case 'json':
      text = toLosslessJson(snapshot);
      break;
    case 'sequentialthinking-plus':
      text = toSequentialThinkingPlusJson(snapshot);
      break;
    case 'html': {
      const allDrawn = DIAGRAM_KINDS.every((key) => options.svgs?.[key] !== undefined);
      const rendererScript = options.rendererScript ?? (allDrawn ? undefined : readRenderer(options.rendererPath));
      text = sessionHtml(snapshot, { svgs: options.svgs, rendererScript, diagramWindow: options.diagramWindow, onProgress: onThoughts });
      break;
    }
    case 'otlp':
      if (options.otlpTrace === undefined) throw new RangeError('The otlp export needs ExportOptions.otlpTrace (src/telemetry/otlpFile).');
      text = await options.otlpTrace(snapshot);
      break;
    default: {
      const unknown: never = format;
      throw new RangeError(`Unknown export format "${String(unknown)}"; expected one of ${EXPORT_FORMATS.join(', ')}.`);
    }
  }
  report({ message: 'Done', fraction: 1 });
  return text;
}

/** Candidate locations of the renderer bundle: beside the running bundle (dist/), or dist/ seen from src/export. */
export function defaultRendererPaths(): string[] {
  return [join(__dirname, 'webview', 'export-render.js'), join(__dirname, '..', '..', 'dist', 'webview', 'export-render.js')];
}

function readRenderer(path: string | undefined): string {
  const candidates = path !== undefined ? [path] : defaultRendererPaths();
  const found = candidates.find((candidate) => existsSync(candidate));
  if (found === undefined) {
    throw new HtmlExportError(
      `The diagram renderer for HTML export was not found (looked in ${candidates.join(', ')}); run "npm run build".`,
    );
  }
  return readFileSync(found, 'utf8');
}

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
