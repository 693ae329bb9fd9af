// Where live traces go and how: `--otlp-endpoint` / `thoughtExplorer.telemetry.otlpEndpoint`, else the standard
// OTEL_EXPORTER_OTLP_* variables. Pure (no exporter is loaded here), so the CLI's option parsing and the editor's
// settings can check an endpoint without loading the network code.

export const OTLP_PROTOCOLS = ['http/protobuf', 'http/json'] as const;
export type OtlpProtocol = (typeof OTLP_PROTOCOLS)[number];

export interface OtlpStreamTarget {
  /** The traces URL to send to; undefined: the exporter reads OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT itself. */
  url?: string;
  /** For people: the URL, or which variable names it, credentials redacted (`redactEndpoint`). */
  description: string;
  protocol: OtlpProtocol;
  /** Things worth telling (an unsupported protocol variable …). */
  warnings: string[];
}

export class OtlpEndpointError extends Error {}

/** Any URL in a text: scheme, user info, the rest up to the query, the query. */
const URL_IN_TEXT = /\b([a-z][a-z0-9+.-]*:\/\/)([^\s/?#@"']*@)?([^\s?#"']*)(\?[^\s#"']*)?/gi;

/**
 * A text that may hold an endpoint (the endpoint itself, an error naming it), as shown to people and clients: user
 * info (`user:password@`) and every query value (`?api_key=…`) become `***`, since collectors take credentials there.
 * The one redaction wherever an endpoint is shown: logs, `stats`, the status bar.
 */
export function redactEndpoint(text: string): string {
  return text.replace(URL_IN_TEXT, (_url, scheme: string, userInfo: string | undefined, rest: string, query: string | undefined) => {
    const hidden = query?.replace(/([?&][^=&]*)=[^&]*/g, '$1=***') ?? '';
    return `${scheme}${userInfo !== undefined ? '***@' : ''}${rest}${hidden}`;
  });
}

/**
 * The traces URL of an endpoint a person gave: a collector's base URL (http://host:4318) gets OTLP's `/v1/traces`,
 * as OTEL_EXPORTER_OTLP_ENDPOINT does; a URL that already ends in `/v1/traces` is taken as it is.
 */
export function tracesUrl(endpoint: string): string {
  let url: URL;
  try {
    url = new URL(endpoint.trim());
  } catch {
    throw new OtlpEndpointError(`the OTLP endpoint must be an http:// or https:// URL, got "${redactEndpoint(endpoint)}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new OtlpEndpointError(`the OTLP endpoint must be an http:// or https:// URL, got "${redactEndpoint(endpoint)}"`);
  if (!/\/v1\/traces\/?$/.test(url.pathname)) url.pathname = `${url.pathname.replace(/\/+$/, '')}/v1/traces`;
  return url.toString();
}

const nonEmpty = (value: string | undefined): string | undefined => (value !== undefined && value.trim() !== '' ? value.trim() : undefined);

/** Whether and where to stream: the given endpoint wins; else the OTEL_EXPORTER_OTLP_* variables; else off. */
export function resolveOtlpTarget(endpoint: string | undefined, env: NodeJS.ProcessEnv = process.env): OtlpStreamTarget | undefined {
  const warnings: string[] = [];
  if (nonEmpty(env.OTEL_SDK_DISABLED)?.toLowerCase() === 'true' && nonEmpty(endpoint) === undefined) return undefined;
  const envEndpoint = nonEmpty(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) ?? nonEmpty(env.OTEL_EXPORTER_OTLP_ENDPOINT);
  const given = nonEmpty(endpoint);
  if (given === undefined && envEndpoint === undefined) return undefined;
  const rawProtocol = nonEmpty(env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL) ?? nonEmpty(env.OTEL_EXPORTER_OTLP_PROTOCOL);
  let protocol: OtlpProtocol = 'http/protobuf';
  if (rawProtocol !== undefined) {
    if ((OTLP_PROTOCOLS as readonly string[]).includes(rawProtocol)) protocol = rawProtocol as OtlpProtocol;
    else warnings.push(`OTLP protocol "${rawProtocol}" is not supported here (only ${OTLP_PROTOCOLS.join(', ')}); using http/protobuf.`);
  }
  if (given !== undefined) {
    const url = tracesUrl(given);
    return { url, description: redactEndpoint(url), protocol, warnings };
  }
  // Checked here so that a mistyped variable is reported at start, not as failed exports later.
  const variable = nonEmpty(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) ? 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' : 'OTEL_EXPORTER_OTLP_ENDPOINT';
  try {
    const checked = new URL(envEndpoint as string);
    if (checked.protocol !== 'http:' && checked.protocol !== 'https:') throw new Error('not http');
  } catch {
    throw new OtlpEndpointError(`${variable} must be an http:// or https:// URL, got "${redactEndpoint(envEndpoint as string)}"`);
  }
  return { description: `${redactEndpoint(envEndpoint as string)} (${variable})`, protocol, warnings };
}
