// A SpanExporter that hands each batch to the export worker (exportWorker.ts) and reports its answer. The main thread
// only copies the spans into a message; encoding and sending happen on the worker's thread. The worker never keeps
// the process alive; if it dies, every batch waiting on it and every later one fails (counted as dropped).
import { Worker } from 'node:worker_threads';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace';
import type { OtlpStreamTarget } from './otlpEndpoint';
import { toPlainSpan, type PlainSpan } from './plainSpans';

export type ToExportWorker = { type: 'export'; id: number; spans: PlainSpan[] } | { type: 'shutdown' };
export type FromExportWorker = { type: 'exported'; id: number; ok: boolean; error?: string } | { type: 'shutDown' };

/** How long shutdown waits for the worker to send what it holds before it is stopped. */
const SHUTDOWN_WAIT_MS = 2000;

export class WorkerSpanExporter implements SpanExporter {
  private readonly worker: Worker;
  private readonly waiting = new Map<number, (result: ExportResult) => void>();
  private nextId = 0;
  private dead: Error | undefined;
  private shutDown: (() => void) | undefined;

  constructor(path: string, data: { target: OtlpStreamTarget; timeoutMillis: number }) {
    this.worker = new Worker(path, { workerData: data });
    this.worker.unref();
    this.worker.on('message', (message: FromExportWorker) => {
      if (message.type === 'shutDown') return this.shutDown?.();
      const callback = this.waiting.get(message.id);
      this.waiting.delete(message.id);
      callback?.(
        message.ok
          ? { code: ExportResultCode.SUCCESS }
          : { code: ExportResultCode.FAILED, error: new Error(message.error ?? 'export failed') },
      );
    });
    const fail = (error: Error) => {
      this.dead = error;
      for (const callback of this.waiting.values()) callback({ code: ExportResultCode.FAILED, error });
      this.waiting.clear();
      this.shutDown?.();
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`the export worker stopped (exit code ${code})`)));
  }

  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    if (this.dead) return resultCallback({ code: ExportResultCode.FAILED, error: this.dead });
    const id = this.nextId++;
    this.waiting.set(id, resultCallback);
    this.worker.postMessage({ type: 'export', id, spans: spans.map(toPlainSpan) } satisfies ToExportWorker);
  }

  async forceFlush(): Promise<void> {
    // Every batch handed over is answered (or failed) by the worker within the request limit; nothing is held here.
  }

  async shutdown(): Promise<void> {
    if (this.dead) return;
    const done = new Promise<void>((resolvePromise) => {
      this.shutDown = resolvePromise;
      setTimeout(resolvePromise, SHUTDOWN_WAIT_MS).unref();
    });
    this.worker.postMessage({ type: 'shutdown' } satisfies ToExportWorker);
    await done;
    await this.worker.terminate();
  }
}
