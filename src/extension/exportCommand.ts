// "Export Session…": pick a session (or take the tree's), a format (Markdown, JSON, JSON in the sequentialthinking-plus
// shape, HTML) and a file; write it with a progress notification for big sessions. HTML uses the explorer's
// pre-rendered SVGs when an explorer is open, else the export embeds the renderer that draws them on opening.
import { writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { EXPORT_EXTENSIONS, exportFormatNamed, type ExportFormat } from '../export/formats';
import { exportSession, type ExportOptions } from '../export/index';
import { resolveSessionArgument } from './sessionPicker';
import type { ExtensionServices } from './services';
import { sessionTitle } from './sessionTreeModel';
import { errorMessage } from '../engine/browserSafe/errorMessage';
import { bundledTelemetryLoader } from './traceStreaming';

interface FormatItem extends vscode.QuickPickItem {
  format: ExportFormat;
}

export const EXPORT_FORMAT_ITEMS: readonly FormatItem[] = [
  {
    format: 'md',
    label: '$(markdown) Markdown',
    description: '.md',
    detail: vscode.l10n.t('Summary, the three diagrams as mermaid blocks (GitHub renders them), every thought with its badges'),
  },
  {
    format: 'json',
    label: '$(json) JSON',
    description: '.json',
    detail: vscode.l10n.t('Lossless: everything the store holds; re-importable'),
  },
  {
    format: 'sequentialthinking-plus',
    label: vscode.l10n.t('$(json) JSON (sequentialthinking-plus shape)'),
    description: '.stp.json',
    detail: vscode.l10n.t('The {id, timestamp, thoughtHistory, branches} shape of sequentialthinking-plus / think-strategies'),
  },
  {
    format: 'html',
    label: '$(globe) HTML',
    description: '.html',
    detail: vscode.l10n.t('One self-contained offline page: thoughts readable without scripts, diagrams as SVG'),
  },
  {
    format: 'otlp',
    label: vscode.l10n.t('$(pulse) OpenTelemetry trace (OTLP/JSON)'),
    description: '.otlp.json',
    detail: vscode.l10n.t('One trace: a span per thought with links and GenAI attributes, thought text included; re-importable'),
  },
];

/** Sessions with more thoughts than this get a progress notification (small ones finish before it would show). */
const PROGRESS_THRESHOLD = 200;

/** Longest file name stem made from a title; longer titles are cut at the last word that fits. */
const FILE_STEM_LENGTH = 60;

/** `stem` (words joined by `-`) cut to at most `length` characters at a word boundary; one overlong word is cut. */
function cutAtWord(stem: string, length: number): string {
  if (stem.length <= length) return stem;
  const cut = stem.slice(0, length + 1).lastIndexOf('-');
  return cut > 0 ? stem.slice(0, cut) : stem.slice(0, length);
}

/** A file name from a title: letters, digits, dashes; never empty, never a path. */
export function exportFileName(title: string, sessionId: string, format: ExportFormat): string {
  const stem = cutAtWord(
    title
      .normalize('NFKD')
      // Accents come apart under NFKD; dropping the marks keeps "Résumé" readable as "resume".
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^A-Za-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .toLowerCase(),
    FILE_STEM_LENGTH,
  );
  return `${stem === '' ? sessionId.replace(/[^A-Za-z0-9_-]/g, '-') : stem}${EXPORT_EXTENSIONS[format]}`;
}

/** `onExported` is told about each file written (walkthrough progress). */
export function registerExportCommand(context: vscode.ExtensionContext, services: ExtensionServices, onExported?: () => void): void {
  context.subscriptions.push(
    // Arguments (all optional): a session id or tree node, a format, a target path — the last two let tests and
    // other commands export without dialogs.
    vscode.commands.registerCommand(
      'thoughtExplorer.exportSession',
      async (argument?: unknown, formatArgument?: unknown, targetArgument?: unknown) => {
        try {
          const target = await runExport(services, argument, formatArgument, targetArgument);
          if (target !== undefined) onExported?.();
          return target;
        } catch (error) {
          const message = errorMessage(error);
          services.log.error(`Export failed: ${message}`);
          void vscode.window.showErrorMessage(vscode.l10n.t('Thought Explorer: export failed: {0}', message));
          return undefined;
        }
      },
    ),
  );
}

async function runExport(
  services: ExtensionServices,
  argument: unknown,
  formatArgument: unknown,
  targetArgument: unknown,
): Promise<string | undefined> {
  const sessionId = await resolveSessionArgument(services, argument, vscode.l10n.t('Export which session?'));
  if (sessionId === undefined) return undefined;
  const snapshot = services.engine.getSession(sessionId);
  if (!snapshot) throw new Error(vscode.l10n.t('Session {0} does not exist (any more).', sessionId));

  let format: ExportFormat;
  if (formatArgument !== undefined) {
    const named = typeof formatArgument === 'string' ? exportFormatNamed(formatArgument) : undefined;
    if (named === undefined) {
      throw new Error(
        vscode.l10n.t(
          'Unknown export format {0}; expected one of {1}.',
          JSON.stringify(formatArgument) ?? String(formatArgument),
          EXPORT_FORMAT_ITEMS.map((item) => item.format).join(', '),
        ),
      );
    }
    format = named;
  } else {
    const picked = await vscode.window.showQuickPick(EXPORT_FORMAT_ITEMS, {
      title: vscode.l10n.t('Export “{0}”', sessionTitle(snapshot.meta)),
      placeHolder: vscode.l10n.t('Format'),
      matchOnDetail: true,
    });
    if (!picked) return undefined;
    format = picked.format;
  }

  let target: string;
  if (typeof targetArgument === 'string' && targetArgument !== '') {
    target = targetArgument;
  } else {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? homedir();
    const uri = await vscode.window.showSaveDialog({
      title: vscode.l10n.t('Export session'),
      defaultUri: vscode.Uri.file(join(folder, exportFileName(sessionTitle(snapshot.meta), sessionId, format))),
      filters: {
        [EXPORT_FORMAT_ITEMS.find((item) => item.format === format)?.label.replace(/^\$\([^)]*\) /, '') ?? format]: [
          EXPORT_EXTENSIONS[format].split('.').pop() as string,
        ],
      },
    });
    if (!uri) return undefined;
    target = uri.fsPath;
  }

  const produce = async (report: (message: string, increment: number) => void): Promise<string> => {
    // The diagrams fold to the same node budget as in the explorer.
    const options: ExportOptions = {
      diagramWindow: { nodeBudget: services.settings.diagramNodeBudget },
      // From the separately built telemetry bundle, loaded only when this format is chosen.
      otlpTrace: (session) => bundledTelemetryLoader(services.extensionPath)().toOtlpJson(session),
    };
    if (format === 'html') {
      report(vscode.l10n.t('Rendering diagrams'), 0);
      const svgs = await services.explorerHandle?.renderedSvgs?.(sessionId);
      if (svgs && Object.keys(svgs).length > 0) options.svgs = svgs;
    }
    let done = 0;
    options.onProgress = (progress) => {
      const increment = Math.max(0, progress.fraction * 100 - done);
      done += increment;
      report(progress.message, increment);
    };
    return exportSession(snapshot, format, options);
  };

  const started = performance.now();
  const text =
    snapshot.thoughts.length > PROGRESS_THRESHOLD || format === 'html'
      ? await vscode.window.withProgress(
          { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Exporting “{0}”', sessionTitle(snapshot.meta)) },
          (progress) => produce((message, increment) => progress.report({ message, increment })),
        )
      : await produce(() => undefined);
  await writeFile(target, text, 'utf8');
  services.log.info(
    `Exported session ${sessionId} as ${format} to ${target} (${text.length} characters, ${(performance.now() - started).toFixed(0)} ms).`,
  );
  if (typeof targetArgument !== 'string') {
    void vscode.window.showInformationMessage(vscode.l10n.t('Exported to {0}', target), vscode.l10n.t('Open')).then((choice) => {
      if (choice) void vscode.commands.executeCommand('vscode.open', vscode.Uri.file(target));
    });
  }
  return target;
}
