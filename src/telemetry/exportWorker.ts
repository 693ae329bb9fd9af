// The export worker (dist/otlpWorker.js): the official OTLP/HTTP exporter on a thread of its own. It gets finished
// spans as plain data (plainSpans.ts), encodes and sends them, and answers each batch with its result, so the tool
// calls on the main thread never wait on encoding (185-221 ms for a batch of 20 KB thoughts) or on the network.
import { parentPort, workerData } from 'node:worker_threads';
import { ExportResultCode } from '@opentelemetry/core';
import type { OtlpStreamTarget } from './otlpEndpoint';
import { createOtlpExporter } from './otlpHttpExporter';
import { fromPlainSpans, type PlainSpan } from './plainSpans';
import type { FromExportWorker, ToExportWorker } from './workerSpanExporter';

const { target, timeoutMillis } = workerData as { target: OtlpStreamTarget; timeoutMillis: number };
const exporter = createOtlpExporter(target, timeoutMillis);
const port = parentPort;

const answer = (message: FromExportWorker) => port?.postMessage(message);

port?.on('message', (message: ToExportWorker) => {
  if (message.type === 'export') {
    try {
      exporter.export(fromPlainSpans(message.spans as PlainSpan[]), (result) =>
        answer({
          type: 'exported',
          id: message.id,
          ok: result.code === ExportResultCode.SUCCESS,
          ...(result.error ? { error: result.error.message } : {}),
        }),
      );
    } catch (error) {
      answer({ type: 'exported', id: message.id, ok: false, error: error instanceof Error ? error.message : String(error) });
    }
  } else {
    void exporter.shutdown().finally(() => answer({ type: 'shutDown' }));
  }
});
