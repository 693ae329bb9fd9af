// A local OTLP/HTTP trace receiver on 127.0.0.1 for tests: it answers like a collector (or accepts and never answers),
// and decodes what it received — OTLP/JSON with JSON.parse, OTLP/protobuf with the OpenTelemetry transformer's own
// protobuf reader — into one span shape the tests assert on.
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  traceState: string;
  name: string;
  attributes: Map<string, unknown>;
  links: { traceId: string; spanId: string; attributes: Map<string, unknown> }[];
  events: { name: string; attributes: Map<string, unknown> }[];
}

export interface Receiver {
  url: string;
  requests: { contentType: string; body: Buffer }[];
  spans(): ReceivedSpan[];
  close(): Promise<void>;
}

/** `answer`: 'ok' answers each export like a collector; 'hang' reads it and never answers. */
export async function startReceiver(answer: 'ok' | 'hang' = 'ok'): Promise<Receiver> {
  const requests: { contentType: string; body: Buffer }[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const contentType = request.headers['content-type'] ?? '';
      requests.push({ contentType, body: Buffer.concat(chunks) });
      if (answer === 'hang') return;
      const json = contentType.includes('json');
      response.writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' });
      response.end(json ? '{}' : Buffer.alloc(0));
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/v1/traces`,
    requests,
    spans: () =>
      requests.flatMap((request) => (request.contentType.includes('json') ? jsonSpans(request.body) : protobufSpans(request.body))),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A URL where nothing listens: connections are refused. */
export async function deadEndpoint(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/v1/traces`;
}

// ---- OTLP/JSON --------------------------------------------------------------------------------------------------

type Json = Record<string, unknown>;

function jsonValue(value: Json | undefined): unknown {
  if (value === undefined) return undefined;
  if ('stringValue' in value) return value.stringValue;
  if ('boolValue' in value) return value.boolValue;
  if ('intValue' in value) return Number(value.intValue);
  if ('doubleValue' in value) return value.doubleValue;
  if ('arrayValue' in value) return ((value.arrayValue as Json).values as Json[] | undefined)?.map(jsonValue) ?? [];
  return undefined;
}

const jsonAttributes = (list: unknown): Map<string, unknown> =>
  new Map(((list as Json[] | undefined) ?? []).map((entry) => [entry.key as string, jsonValue(entry.value as Json)]));

export function jsonSpans(body: Buffer | string): ReceivedSpan[] {
  const request = JSON.parse(body.toString()) as Json;
  return ((request.resourceSpans as Json[]) ?? []).flatMap((resource) =>
    ((resource.scopeSpans as Json[]) ?? []).flatMap((scope) =>
      ((scope.spans as Json[]) ?? []).map((span) => ({
        traceId: span.traceId as string,
        spanId: span.spanId as string,
        parentSpanId: (span.parentSpanId as string | undefined) ?? '',
        traceState: (span.traceState as string | undefined) ?? '',
        name: span.name as string,
        attributes: jsonAttributes(span.attributes),
        links: ((span.links as Json[] | undefined) ?? []).map((link) => ({
          traceId: link.traceId as string,
          spanId: link.spanId as string,
          attributes: jsonAttributes(link.attributes),
        })),
        events: ((span.events as Json[] | undefined) ?? []).map((event) => ({
          name: event.name as string,
          attributes: jsonAttributes(event.attributes),
        })),
      })),
    ),
  );
}

// ---- OTLP/protobuf (opentelemetry/proto/trace/v1/trace.proto field numbers) --------------------------------------

interface Reader {
  isAtEnd(): boolean;
  readTag(): { fieldNumber: number; wireType: number };
  readVarint(): number;
  readBytes(): Uint8Array;
  readString(): string;
  skip(wireType: number): void;
}
// The transformer's protobuf reader is internal (not in its package exports): loaded from its file next to the entry.
const requireHere = createRequire(__filename);
const { ProtobufReader } = requireHere(
  join(dirname(requireHere.resolve('@opentelemetry/otlp-transformer')), 'common', 'protobuf', 'protobuf-reader.cjs'),
) as { ProtobufReader: new (bytes: Uint8Array) => Reader };

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

function fields(bytes: Uint8Array, read: (field: number, reader: Reader, wireType: number) => boolean): void {
  const reader = new ProtobufReader(bytes);
  while (!reader.isAtEnd()) {
    const { fieldNumber, wireType } = reader.readTag();
    if (!read(fieldNumber, reader, wireType)) reader.skip(wireType);
  }
}

function anyValue(bytes: Uint8Array): unknown {
  let value: unknown;
  fields(bytes, (field, reader) => {
    if (field === 1) value = reader.readString();
    else if (field === 2) value = reader.readVarint() === 1;
    else if (field === 3) value = reader.readVarint();
    else if (field === 5) {
      const values: unknown[] = [];
      fields(reader.readBytes(), (inner, innerReader) => (inner === 1 ? (values.push(anyValue(innerReader.readBytes())), true) : false));
      value = values;
    } else return false;
    return true;
  });
  return value;
}

function keyValue(bytes: Uint8Array, into: Map<string, unknown>): void {
  let key = '';
  let value: unknown;
  fields(bytes, (field, reader) => {
    if (field === 1) key = reader.readString();
    else if (field === 2) value = anyValue(reader.readBytes());
    else return false;
    return true;
  });
  into.set(key, value);
}

function protobufSpan(bytes: Uint8Array): ReceivedSpan {
  const span: ReceivedSpan = {
    traceId: '',
    spanId: '',
    parentSpanId: '',
    traceState: '',
    name: '',
    attributes: new Map(),
    links: [],
    events: [],
  };
  fields(bytes, (field, reader) => {
    if (field === 1) span.traceId = hex(reader.readBytes());
    else if (field === 2) span.spanId = hex(reader.readBytes());
    else if (field === 3) span.traceState = reader.readString();
    else if (field === 4) span.parentSpanId = hex(reader.readBytes());
    else if (field === 5) span.name = reader.readString();
    else if (field === 9) keyValue(reader.readBytes(), span.attributes);
    else if (field === 11) {
      const event = { name: '', attributes: new Map<string, unknown>() };
      fields(reader.readBytes(), (inner, r) => {
        if (inner === 2) event.name = r.readString();
        else if (inner === 3) keyValue(r.readBytes(), event.attributes);
        else return false;
        return true;
      });
      span.events.push(event);
    } else if (field === 13) {
      const link = { traceId: '', spanId: '', attributes: new Map<string, unknown>() };
      fields(reader.readBytes(), (inner, r) => {
        if (inner === 1) link.traceId = hex(r.readBytes());
        else if (inner === 2) link.spanId = hex(r.readBytes());
        else if (inner === 4) keyValue(r.readBytes(), link.attributes);
        else return false;
        return true;
      });
      span.links.push(link);
    } else return false;
    return true;
  });
  return span;
}

export function protobufSpans(body: Uint8Array): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  // ExportTraceServiceRequest.resource_spans = 1 → ResourceSpans.scope_spans = 2 → ScopeSpans.spans = 2.
  fields(body, (field, reader) => {
    if (field !== 1) return false;
    fields(reader.readBytes(), (scopeField, scopeReader) => {
      if (scopeField !== 2) return false;
      fields(scopeReader.readBytes(), (spanField, spanReader) => {
        if (spanField !== 2) return false;
        spans.push(protobufSpan(spanReader.readBytes()));
        return true;
      });
      return true;
    });
    return true;
  });
  return spans;
}
