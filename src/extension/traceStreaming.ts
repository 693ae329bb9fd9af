// Live trace streaming in the editor: `thoughtExplorer.telemetry.otlpEndpoint` (or OTEL_EXPORTER_OTLP_* in VS Code's
// environment) turns it on, `includeThoughtText` adds the text. The exporters (and the OTLP file export) live in
// dist/telemetry.js, required only when streaming is on or a session is exported as a trace, so activation never
// parses them. A changed setting restarts the stream; the running MCP
// server reaches it through this host, which reads the current stream on every call.
import * as vscode from 'vscode';
import { join } from 'node:path';
import type { ToolCallTelemetry } from '../mcp/toolCallTelemetry';
import type { TraceStreamStats } from '../shared/traceStreamStats';
import type { LiveTraceStreamer } from '../telemetry/liveTraces';
import type { startOtlpStreaming } from '../telemetry/otlpExporter';
import type { toOtlpJson } from '../telemetry/otlpFile';
import { resolveOtlpTarget } from '../telemetry/otlpEndpoint';
import type { ExtensionServices } from './services';
import { SETTINGS_SECTION, type SettingsSource } from './settings';
import { errorMessage } from '../engine/browserSafe/errorMessage';

export const TELEMETRY_BUNDLE = join('dist', 'telemetry.js');

export interface TelemetryModule {
  startOtlpStreaming: typeof startOtlpStreaming;
  toOtlpJson: typeof toOtlpJson;
}

export type TelemetryLoader = () => TelemetryModule;

/** Requires the separately built telemetry bundle (a computed path: esbuild leaves it alone). */
export function bundledTelemetryLoader(extensionPath: string): TelemetryLoader {
  return () => {
    const path = join(extensionPath, TELEMETRY_BUNDLE);
    const loaded: unknown = require(path);
    const module = loaded as Partial<TelemetryModule> | null;
    if (typeof module?.startOtlpStreaming !== 'function' || typeof module.toOtlpJson !== 'function')
      throw new Error(`${path} does not export startOtlpStreaming and toOtlpJson; rebuild the extension (npm run build).`);
    return loaded as TelemetryModule;
  };
}

export interface TraceSettings {
  endpoint: string;
  includeThoughtText: boolean;
}

export function readTraceSettings(source: SettingsSource): TraceSettings {
  const endpoint = source.get<unknown>('telemetry.otlpEndpoint');
  return {
    endpoint: typeof endpoint === 'string' ? endpoint.trim() : '',
    includeThoughtText: source.get<unknown>('telemetry.includeThoughtText') === true,
  };
}

/** One line for the status bar's tooltip while streaming is on. */
export function traceStreamSummary(stats: TraceStreamStats | undefined): string | undefined {
  if (stats === undefined) return undefined;
  const counts = vscode.l10n.t('{0} spans sent, {1} dropped', stats.exported, stats.dropped);
  return vscode.l10n.t('Traces to {0}: {1}', stats.endpoint, counts) + (stats.lastError ? ` (${stats.lastError})` : '');
}

export class TraceStreamingHost implements ToolCallTelemetry, vscode.Disposable {
  private streamer: LiveTraceStreamer | undefined;
  private detach: (() => void) | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly services: ExtensionServices,
    private readonly load: TelemetryLoader,
  ) {}

  /** (Re)starts from the settings and the environment; the previous stream sends what it holds first. */
  restart(settings: TraceSettings): void {
    this.stop();
    let target;
    try {
      target = resolveOtlpTarget(settings.endpoint === '' ? undefined : settings.endpoint);
    } catch (error) {
      this.services.log.warn(`Trace streaming is off: ${errorMessage(error)}`);
      return;
    }
    if (target === undefined) return;
    for (const warning of target.warnings) this.services.log.warn(`Trace streaming: ${warning}`);
    try {
      const streamer = this.load().startOtlpStreaming(target, {
        includeText: settings.includeThoughtText,
        version: this.services.extensionVersion,
        loadSession: (id) => this.services.engine.getSession(id),
      });
      const events = this.services.onEngineEvent(streamer.onEngineEvent);
      const stats = streamer.onStatsChanged(() => this.changed.fire());
      this.streamer = streamer;
      this.detach = () => {
        events.dispose();
        stats();
      };
      this.services.log.info(
        `Streaming session traces to ${target.description} (${target.protocol}, ${settings.includeThoughtText ? 'with' : 'without'} thought text).`,
      );
    } catch (error) {
      this.services.log.error(`Trace streaming could not start: ${errorMessage(error)}`);
    }
    this.changed.fire();
  }

  inCallContext<T>(meta: unknown, run: () => T): T {
    return this.streamer ? this.streamer.inCallContext(meta, run) : run();
  }

  decided(reply: Parameters<NonNullable<ToolCallTelemetry['decided']>>[0]): void {
    this.streamer?.decided(reply);
  }

  stats(): TraceStreamStats | undefined {
    return this.streamer?.stats();
  }

  private stop(): void {
    this.detach?.();
    this.detach = undefined;
    // Bounded, in the background: a collector that does not answer never holds up the editor.
    void this.streamer?.shutdown(2000);
    this.streamer = undefined;
  }

  dispose(): void {
    this.stop();
    this.changed.dispose();
  }
}

export function registerTraceStreaming(
  context: vscode.ExtensionContext,
  services: ExtensionServices,
  load: TelemetryLoader = bundledTelemetryLoader(services.extensionPath),
): TraceStreamingHost {
  const host = new TraceStreamingHost(services, load);
  const settings = () => readTraceSettings(vscode.workspace.getConfiguration(SETTINGS_SECTION));
  host.restart(settings());
  context.subscriptions.push(
    host,
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(`${SETTINGS_SECTION}.telemetry`)) host.restart(settings());
    }),
  );
  return host;
}
