// Section: what live OTLP trace streaming costs a tool call. Our built CLI three times in each round: plain, with
// --otlp-endpoint (the default: no thought text) and with --otlp-include-text too, all streaming to a collector
// stand-in on 127.0.0.1 in this process, driven thought by thought like the tool-call section (order rotated on every
// thought). Target: p50 with streaming ≤ 1.05× without; the with-text figure is reported beside it.
import { createServer } from 'node:http';
import { join } from 'node:path';
import { formatMs, median, positiveIntegerFromEnv, type BenchContext, type BenchSection, type BenchSectionResult } from './section';
import { runRound, serversUnderTest, type RunResult, type ServerUnderTest } from './toolCalls';
import { DEFAULT_WORKLOAD, type WorkloadOptions } from './workload';

export const STREAMING_P50_RATIO_TARGET = 1.05;
const DEFAULT_ROUNDS = 7;
const DEFAULT_THOUGHTS = 2_000;

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
      const streaming = (server: ServerUnderTest, label: string, extra: string[]): ServerUnderTest => ({
        ...server,
        label,
        args: [...server.args, '--otlp-endpoint', `http://127.0.0.1:${port}`, ...extra],
      });
      const trio = (round: number): ServerUnderTest[] => [
        { ...ours(round * 3), label: 'streaming off' },
        streaming(ours(round * 3 + 1), 'streaming on', []),
        streaming(ours(round * 3 + 2), 'streaming on, with text', ['--otlp-include-text']),
      ];
      context.progress('warm-up: 500 thoughts to each');
      await runRound(trio(0), { ...workload, thoughts: 500 });
      const results: { off: RunResult; on: RunResult; text: RunResult }[] = [];
      for (let round = 1; round <= rounds; round++) {
        context.progress(`round ${round}/${rounds}: ${workload.thoughts} thoughts to each, interleaved`);
        // Which server opens the round rotates too (within a round the order rotates thought by thought).
        const servers = trio(round);
        const shift = round % servers.length;
        const order = [...servers.slice(shift), ...servers.slice(0, shift)];
        const runs = await runRound(order, workload);
        const byLabel = (label: string) => runs[order.findIndex((server) => server.label === label)];
        results.push({ off: byLabel('streaming off'), on: byLabel('streaming on'), text: byLabel('streaming on, with text') });
      }
      const ratios = results.map((result) => result.on.p50 / result.off.p50);
      const textRatios = results.map((result) => result.text.p50 / result.off.p50);
      const ratio = median(ratios);
      const textRatio = median(textRatios);
      const lines = [
        `Workload: ${workload.thoughts} thoughts of ${workload.thoughtLength} characters per server and round, ${rounds} rounds after a warm-up; ` +
          'the streaming servers send every thought as a span over OTLP/HTTP protobuf to a local receiver, one without and one with the thought text.',
        '',
        '| round | p50 off | p50 on | ratio | p50 on, text | ratio | p99 off | p99 on | p99 on, text |',
        '|---|---|---|---|---|---|---|---|---|',
        ...results.map(
          ({ off: plain, on, text }, index) =>
            `| ${index + 1} | ${formatMs(plain.p50)} | ${formatMs(on.p50)} | ${ratios[index].toFixed(3)} | ${formatMs(text.p50)} | ${textRatios[index].toFixed(3)} | ` +
            `${formatMs(plain.p99)} | ${formatMs(on.p99)} | ${formatMs(text.p99)} |`,
        ),
        '',
        `With the thought text (--otlp-include-text): p50 ratio ${textRatio.toFixed(3)} (median; reported, no target).`,
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
