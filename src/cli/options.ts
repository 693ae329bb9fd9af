// Command-line parsing for `thought-explorer-mcp`: node:util's parseArgs tokenises argv against the option table, and
// the tokens are read in order (help and version answer first, `--http` takes a port only from the token right after
// it) into a typed command or a clear usage error. Kept apart from main.ts so it is testable without starting anything.
import { parseArgs } from 'node:util';
import type { EngineLimits } from '../engine/limits';
import { REPLY_DETAILS, isReplyDetail, type ReplyDetail } from '../engine/fieldRules';
import { EXPORT_FORMATS, exportFormatNamed, type ExportFormat } from '../export/formats';
import { MODEL_TOOLS, ToolSelectionError, parseToolSelection, type ModelToolName } from '../mcp/toolSelection';
import { OtlpEndpointError, tracesUrl } from '../telemetry/otlpEndpoint';

export interface CommonOptions {
  storagePath?: string;
  limits: Partial<EngineLimits>;
}

export interface HttpOptions {
  port: number;
  /** Browser origins allowed to connect (exact match); every other Origin is refused. */
  allowedOrigins: string[];
  /** Seconds without a request after which an MCP session is closed (default: the server's). */
  sessionIdleSeconds?: number;
  /** --stateless: no MCP sessions (no mcp-session-id); a thought after the first names its sessionId. */
  stateless?: boolean;
}

export type CliCommand =
  | { kind: 'help' }
  | { kind: 'version' }
  | ({
      kind: 'serve';
      http?: HttpOptions;
      model?: ModelOptions;
      decisionPoints?: DecisionPointFlags;
      /** --tools: the tools to advertise; absent: all. */
      tools?: ModelToolName[];
      replyDetail?: ReplyDetail;
      /** --otlp-endpoint / --otlp-include-text: live trace streaming (also on with OTEL_EXPORTER_OTLP_* variables). */
      otlp?: OtlpOptions;
    } & CommonOptions)
  | ({ kind: 'export'; sessionId: string; format: ExportFormat; out?: string } & CommonOptions)
  | ({ kind: 'import'; file: string } & CommonOptions);

/** An OpenAI-compatible endpoint for the deliberate tool; the key is read from the named variable, never from argv. */
export interface ModelOptions {
  endpoint: string;
  name: string;
  apiKeyEnv?: string;
}

/** Live trace streaming to an OpenTelemetry collector; `endpoint` absent: only the OTEL_EXPORTER_OTLP_* variables. */
export interface OtlpOptions {
  /** The collector's traces URL (a base URL gets /v1/traces). */
  endpoint?: string;
  includeText: boolean;
}

/** --ask-at-decision-points: ask the person through MCP elicitation at decision points, waiting this long at most. */
export interface DecisionPointFlags {
  timeoutSeconds?: number;
}

export class UsageError extends Error {}

export const USAGE = `Usage:
  thought-explorer-mcp [options]                 serve MCP over stdio (the default)
  thought-explorer-mcp --http [port] [options]   serve Streamable HTTP on 127.0.0.1 (port 0 or none: a free port);
                                                 prints the URL and a bearer token to stderr
      --allow-origin ORIGIN     (with --http, repeatable) let a browser page of this exact origin connect, e.g.
                                https://inspector.example:6274; every other Origin is refused
      --idle-timeout SECONDS    (with --http) close an MCP session after this long without a request (default 1800)
      --stateless               (with --http) serve without MCP sessions (no Mcp-Session-Id): each request stands
                                alone; send sessionId with every thought after the first
  thought-explorer-mcp export <sessionId> --format md|json|sequentialthinking-plus|html|otlp [--out FILE] [options]
  thought-explorer-mcp import <file> [options]   add a session from our JSON export, an OTLP/JSON trace (--format otlp)
                                                 or the sequentialthinking-plus shape

Options:
  -s, --storage-path DIR        where sessions are saved (default: $THOUGHT_EXPLORER_STORAGE or ~/.thought-explorer/sessions)
  --max-thought-length N        longest accepted thought, in characters
  --max-thoughts N              most thoughts per session
  --max-sessions-in-memory N    most sessions held in memory (the rest stay on disk)
  --model-endpoint URL          an OpenAI-compatible API (e.g. http://127.0.0.1:11434/v1 for Ollama) that runs the
                                deliberate tool's roles, for MCP clients without sampling; needs --model
  --model NAME                  the model to ask at --model-endpoint
  --model-api-key-env VARIABLE  the environment variable holding the endpoint's API key (never the key itself)
  --ask-at-decision-points      ask the person (MCP elicitation, clients that support it) where the strategy offers
                                several next stages or the agent finishes early; the answer goes into the reply
  --decision-timeout SECONDS    (with --ask-at-decision-points) how long to wait for the answer (default 60)
  --tools LIST                  advertise only these tools, comma-separated (default all: ${MODEL_TOOLS.join(',')})
  --reply-detail LEVEL          how much a sequentialthinking reply says: compact (default: what is new since the last
                                reply), standard (every field, empty and unchanged extras left out) or full
  --otlp-endpoint URL           stream each session as an OpenTelemetry trace to this OTLP/HTTP collector (e.g.
                                http://127.0.0.1:4318; /v1/traces is added). Off by default; also on when
                                OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is set. Headers and
                                protocol (http/protobuf, http/json) come from OTEL_EXPORTER_OTLP_HEADERS / _PROTOCOL
  --otlp-include-text           also send thought text, titles and feedback text (default: structure and counts only)
  -h, --help                    show this help
  -v, --version                 show the version

Logs go to stderr; stdout carries only the MCP protocol.`;

const LIMIT_FLAGS: Record<string, keyof EngineLimits> = {
  'max-thought-length': 'maxThoughtLength',
  'max-thoughts': 'maxThoughtsPerSession',
  'max-sessions-in-memory': 'maxSessionsInMemory',
};

/** The option table parseArgs tokenises against; the values are checked below, in argv order. */
const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
  // A boolean whose port, if any, is the next token (or `--http=PORT`): read from the tokens below.
  http: { type: 'boolean' },
  'allow-origin': { type: 'string', multiple: true },
  'idle-timeout': { type: 'string' },
  stateless: { type: 'boolean' },
  'storage-path': { type: 'string', short: 's' },
  'max-thought-length': { type: 'string' },
  'max-thoughts': { type: 'string' },
  'max-sessions-in-memory': { type: 'string' },
  'model-endpoint': { type: 'string' },
  model: { type: 'string' },
  'model-api-key-env': { type: 'string' },
  'ask-at-decision-points': { type: 'boolean' },
  'decision-timeout': { type: 'string' },
  tools: { type: 'string' },
  'reply-detail': { type: 'string' },
  format: { type: 'string' },
  out: { type: 'string', short: 'o' },
  'otlp-endpoint': { type: 'string' },
  'otlp-include-text': { type: 'boolean' },
} as const;

export function parseCliArguments(argv: readonly string[]): CliCommand {
  // strict: false so that an unknown option or a missing value reaches the checks below, which name it our way.
  const { tokens } = parseArgs({ args: [...argv], options: OPTIONS, strict: false, allowPositionals: true, tokens: true });
  const positional: string[] = [];
  const common: CommonOptions = { limits: {} };
  let http: { port: number } | undefined;
  const allowedOrigins: string[] = [];
  let sessionIdleSeconds: number | undefined;
  let stateless = false;
  let format: string | undefined;
  let out: string | undefined;
  const model: Partial<ModelOptions> = {};
  let askAtDecisionPoints = false;
  let decisionTimeoutSeconds: number | undefined;
  let tools: ModelToolName[] | undefined;
  let replyDetail: ReplyDetail | undefined;
  let otlpEndpoint: string | undefined;
  let otlpIncludeText = false;
  /** Index in argv of the positional token `--http` took as its port. */
  let httpPortIndex: number | undefined;

  for (const [position, token] of tokens.entries()) {
    if (token.kind === 'option-terminator') throw new UsageError('Unknown option --');
    if (token.kind === 'positional') {
      if (token.index !== httpPortIndex) positional.push(token.value);
      continue;
    }
    const flag = token.rawName;
    const valueOf = (): string => {
      const value = token.value;
      if (value === undefined || (!token.inlineValue && value.startsWith('-') && value.length > 1))
        throw new UsageError(`${flag} needs a value`);
      return value;
    };
    switch (token.name) {
      case 'help':
        return { kind: 'help' };
      case 'version':
        return { kind: 'version' };
      case 'http': {
        let portText = token.value;
        const next = tokens[position + 1];
        if (portText === undefined && next?.kind === 'positional' && next.index === token.index + 1 && /^\d+$/.test(next.value)) {
          portText = next.value;
          httpPortIndex = next.index;
        }
        http = { port: portText === undefined ? 0 : port(portText) };
        break;
      }
      case 'allow-origin':
        allowedOrigins.push(origin(valueOf()));
        break;
      case 'stateless':
        stateless = true;
        break;
      case 'idle-timeout':
        sessionIdleSeconds = positiveInteger(flag, valueOf());
        if (sessionIdleSeconds > MAX_IDLE_SECONDS)
          throw new UsageError(`${flag} must be at most ${MAX_IDLE_SECONDS} seconds, got ${sessionIdleSeconds}`);
        break;
      case 'storage-path':
        common.storagePath = valueOf();
        break;
      case 'model-endpoint':
        model.endpoint = valueOf();
        break;
      case 'model':
        model.name = valueOf();
        break;
      case 'model-api-key-env':
        model.apiKeyEnv = valueOf();
        break;
      case 'ask-at-decision-points':
        askAtDecisionPoints = true;
        break;
      case 'decision-timeout':
        decisionTimeoutSeconds = positiveInteger(flag, valueOf());
        if (decisionTimeoutSeconds > MAX_IDLE_SECONDS)
          throw new UsageError(`${flag} must be at most ${MAX_IDLE_SECONDS} seconds, got ${decisionTimeoutSeconds}`);
        break;
      case 'tools':
        tools = toolList(valueOf());
        break;
      case 'reply-detail': {
        const level = valueOf();
        if (!isReplyDetail(level)) throw new UsageError(`${flag} must be one of ${REPLY_DETAILS.join(', ')}, got "${level}"`);
        replyDetail = level;
        break;
      }
      case 'format':
        format = valueOf();
        break;
      case 'out':
        out = valueOf();
        break;
      case 'otlp-endpoint':
        otlpEndpoint = valueOf();
        try {
          tracesUrl(otlpEndpoint);
        } catch (error) {
          if (error instanceof OtlpEndpointError) throw new UsageError(`${flag}: ${error.message}`);
          throw error;
        }
        break;
      case 'otlp-include-text':
        otlpIncludeText = true;
        break;
      default:
        if (Object.hasOwn(LIMIT_FLAGS, token.name)) common.limits[LIMIT_FLAGS[token.name]] = positiveInteger(flag, valueOf());
        else throw new UsageError(`Unknown option ${flag}`);
    }
  }

  const [command, ...rest] = positional;
  const modelOptions = checkModelOptions(model);
  if (!http && (allowedOrigins.length > 0 || sessionIdleSeconds !== undefined || stateless))
    throw new UsageError('--allow-origin, --idle-timeout and --stateless belong to --http');
  if (decisionTimeoutSeconds !== undefined && !askAtDecisionPoints)
    throw new UsageError('--decision-timeout belongs to --ask-at-decision-points');
  if (tools !== undefined && command !== undefined) throw new UsageError('--tools is for serving, not for the export and import commands');
  if (askAtDecisionPoints && command !== undefined)
    throw new UsageError('--ask-at-decision-points is for serving, not for the export and import commands');
  if (replyDetail !== undefined && command !== undefined)
    throw new UsageError('--reply-detail is for serving, not for the export and import commands');
  if ((otlpEndpoint !== undefined || otlpIncludeText) && command !== undefined)
    throw new UsageError('--otlp-endpoint and --otlp-include-text are for serving, not for the export and import commands');
  if (command === undefined) {
    if (format !== undefined || out !== undefined) throw new UsageError('--format and --out belong to the export command');
    const httpOptions = http
      ? {
          ...http,
          allowedOrigins,
          ...(sessionIdleSeconds !== undefined ? { sessionIdleSeconds } : {}),
          ...(stateless ? { stateless } : {}),
        }
      : undefined;
    const decisionPoints = askAtDecisionPoints
      ? { decisionPoints: decisionTimeoutSeconds === undefined ? {} : { timeoutSeconds: decisionTimeoutSeconds } }
      : {};
    return {
      kind: 'serve',
      ...(httpOptions ? { http: httpOptions } : {}),
      ...(modelOptions ? { model: modelOptions } : {}),
      ...decisionPoints,
      ...(tools ? { tools } : {}),
      ...(replyDetail !== undefined ? { replyDetail } : {}),
      ...(otlpEndpoint !== undefined || otlpIncludeText
        ? { otlp: { ...(otlpEndpoint !== undefined ? { endpoint: otlpEndpoint } : {}), includeText: otlpIncludeText } }
        : {}),
      ...common,
    };
  }
  if (modelOptions)
    throw new UsageError('--model-endpoint, --model and --model-api-key-env are for serving, not for the export and import commands');
  if (http) throw new UsageError('--http is for serving, not for the export and import commands');
  if (command === 'export') {
    if (rest.length !== 1)
      throw new UsageError('export needs exactly one session id: export <sessionId> --format md|json|sequentialthinking-plus|html|otlp');
    if (format === undefined) throw new UsageError(`export needs --format (${EXPORT_FORMATS.join(', ')})`);
    const named = exportFormatNamed(format);
    if (named === undefined) throw new UsageError(`Unknown export format "${format}"; expected one of ${EXPORT_FORMATS.join(', ')}`);
    return { kind: 'export', sessionId: rest[0], format: named, ...(out !== undefined ? { out } : {}), ...common };
  }
  if (command === 'import') {
    if (rest.length !== 1) throw new UsageError('import needs exactly one file: import <file>');
    if (format !== undefined || out !== undefined) throw new UsageError('--format and --out belong to the export command');
    return { kind: 'import', file: rest[0], ...common };
  }
  throw new UsageError(`Unknown command "${command}"; expected export or import (or no command to serve)`);
}

function checkModelOptions(model: Partial<ModelOptions>): ModelOptions | undefined {
  if (model.endpoint === undefined) {
    if (model.name !== undefined || model.apiKeyEnv !== undefined)
      throw new UsageError('--model and --model-api-key-env need --model-endpoint URL');
    return undefined;
  }
  let url: URL;
  try {
    url = new URL(model.endpoint);
  } catch {
    throw new UsageError(`--model-endpoint must be an http:// or https:// URL, got "${model.endpoint}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`--model-endpoint must be an http:// or https:// URL, got "${model.endpoint}"`);
  if (model.name === undefined || model.name.trim() === '')
    throw new UsageError('--model-endpoint needs --model NAME (the model to ask, e.g. llama3.1)');
  // A key pasted here would sit in the process list and shell history: only a variable's name is accepted.
  if (model.apiKeyEnv !== undefined && !/^[A-Za-z_][A-Za-z0-9_]{0,127}$/.test(model.apiKeyEnv)) {
    throw new UsageError(
      '--model-api-key-env takes the NAME of an environment variable holding the key (letters, digits, "_"), never the key itself',
    );
  }
  return { endpoint: model.endpoint, name: model.name, ...(model.apiKeyEnv !== undefined ? { apiKeyEnv: model.apiKeyEnv } : {}) };
}

function toolList(text: string): ModelToolName[] {
  try {
    return parseToolSelection(text);
  } catch (error) {
    if (error instanceof ToolSelectionError) throw new UsageError(`--tools: ${error.message}`);
    throw error;
  }
}

function port(text: string): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || value > 65535) throw new UsageError(`--http port must be 0-65535, got "${text}"`);
  return value;
}

/** setTimeout's bound, in whole seconds. */
const MAX_IDLE_SECONDS = Math.floor((2 ** 31 - 1) / 1000);

/** An origin as browsers send it: scheme://host[:port], nothing after. "null" and wildcards are never allowed. */
function origin(text: string): string {
  if (!/^[a-z][a-z0-9+.-]*:\/\/[^/\s?#*]+$/i.test(text)) {
    throw new UsageError(
      `--allow-origin needs an exact origin such as https://example.com:8080 (scheme://host[:port], no path), got "${text}"`,
    );
  }
  return text;
}

function positiveInteger(flag: string, text: string): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < 1 || !Number.isSafeInteger(value))
    throw new UsageError(`${flag} must be a whole number of at least 1, got "${text}"`);
  return value;
}
