// Section: what live OTLP trace streaming costs a tool call. Our built CLI twice in each round, once plain and once
// with --otlp-endpoint (and the thought text) to a collector stand-in on 127.0.0.1 in this process, driven thought by
// thought like the tool-call section (order swapped on every thought). Target: p50 with streaming ≤ 1.05× without.
import { createServer } from 'node:http';
import { join } from 'node:path';
import { formatMs, type BenchContext, type BenchSection, type BenchSectionResult } from './section';
import { runRound, serversUnderTest, type RunResult, type ServerUnderTest } from './toolCalls';
import { DEFAULT_WORKLOAD, type WorkloadOptions } from './workload';

export const STREAMING_P50_RATIO_TARGET = 1.05;
const DEFAULT_ROUNDS = 5;
const DEFAULT_THOUGHTS = 2_000;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function positiveIntegerFromEnv(name: string): number | undefined {
  const value = Number(process.env[name]);
  return Number.isInteger(value) && value > 0 ? value : undefined;
}

export const otlpStreamingSection: BenchSection = {
  title: 'OTLP trace streaming: tool p50 with streaming on vs off',
  async run(context: BenchContext): Promise<BenchSectionResult> {
    // A collector stand-in: reads each export and answers 200, counting bytes (protobuf, the default protocol).
    let requests = 0;
    let bytes = 0;
    const collector = createServer((request, response) => {
      request.on('data', (chunk: Buffer) => (bytes += chunk.length));
      request.on('end', () => {
        requests++;
        response.writeHead(200, { 'content-type': 'application/x-protobuf' });
        response.end();
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    const { port } = collector.address() as { port: number };
    try {
      const workload: WorkloadOptions = { ...DEFAULT_WORKLOAD, thoughts: positiveIntegerFromEnv('BENCH_THOUGHTS') ?? DEFAULT_THOUGHTS };
      const rounds = positiveIntegerFromEnv('BENCH_ROUNDS') ?? DEFAULT_ROUNDS;
      const { ours } = serversUnderTest(context.root, (round) => join(context.tempDir, `store-${round}`));
      const off = (round: number): ServerUnderTest => ({ ...ours(round * 2), label: 'streaming off' });
      const on = (round: number): ServerUnderTest => {
        const server = ours(round * 2 + 1);
        return {
          ...server,
          label: 'streaming on',
          args: [...server.args, '--otlp-endpoint', `http://127.0.0.1:${port}`, '--otlp-include-text'],
        };
      };
      context.progress('warm-up: 500 thoughts to each');
      await runRound([off(0), on(0)], { ...workload, thoughts: 500 });
      const results: { off: RunResult; on: RunResult }[] = [];
      for (let round = 1; round <= rounds; round++) {
        context.progress(`round ${round}/${rounds}: ${workload.thoughts} thoughts to each, interleaved`);
        if (round % 2 === 1) {
          const [plain, streaming] = await runRound([off(round), on(round)], workload);
          results.push({ off: plain, on: streaming });
        } else {
          const [streaming, plain] = await runRound([on(round), off(round)], workload);
          results.push({ off: plain, on: streaming });
        }
      }
      const ratios = results.map((result) => result.on.p50 / result.off.p50);
      const ratio = median(ratios);
      const lines = [
        `Workload: ${workload.thoughts} thoughts of ${workload.thoughtLength} characters per server and round, ${rounds} rounds after a warm-up; ` +
          'the streaming server sends every thought as a span (with its text) over OTLP/HTTP protobuf to a local receiver.',
        '',
        '| round | p50 off | p50 on | ratio | p99 off | p99 on |',
        '|---|---|---|---|---|---|',
        ...results.map(
          ({ off: plain, on: streaming }, index) =>
            `| ${index + 1} | ${formatMs(plain.p50)} | ${formatMs(streaming.p50)} | ${ratios[index].toFixed(3)} | ${formatMs(plain.p99)} | ${formatMs(streaming.p99)} |`,
        ),
        '',
        `The receiver got ${requests} export requests, ${(bytes / 1024 / 1024).toFixed(1)} MiB.`,
      ];
      return {
        lines,
        checks: [
          {
            name: 'tool p50 with OTLP streaming vs without',
            pass: ratio <= STREAMING_P50_RATIO_TARGET && requests > 0,
            detail: `p50 ratio ${ratio.toFixed(3)} (median of ${rounds} rounds; target <= ${STREAMING_P50_RATIO_TARGET}); ${requests} exports received`,
          },
        ],
      };
    } finally {
      await new Promise<void>((resolve) => collector.close(() => resolve()));
    }
  },
};
