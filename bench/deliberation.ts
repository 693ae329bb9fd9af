// Deliberation concurrency: six hats on a scripted sampling model that takes 300 ms per call, run as a parallel plan
// and as a sequential plan through the real deliberate tool (MCP Client over the in-memory transport). Parallel must
// finish in under 2x one call; sequential takes about 6x. Printed as ratios to one call's time.
// Standalone: `node --import tsx bench/deliberation.ts`; also a section for bench/run.ts.
import { connectDeliberation } from '../test/mcp/support/scriptedModel';
import type { BenchSection, BenchSectionResult } from './section';

const CALL_MS = 300;
const HATS = ['factual', 'emotional', 'critical', 'optimistic', 'creative', 'synthesis'];
const RUNS = 3;

export const deliberationSection: BenchSection = {
  title: 'Deliberation: parallel against sequential hats (300 ms per call)',
  async run(): Promise<BenchSectionResult> {
    const harness = await connectDeliberation(() => ({ text: 'scripted view', delayMs: CALL_MS }));
    const steps = HATS.map((role) => ({ role, strategy: 'direct' }));
    const timings = { parallel: [] as number[], sequential: [] as number[] };
    try {
      for (let run = 0; run < RUNS; run++) {
        for (const kind of ['parallel', 'sequential'] as const) {
          const plan = kind === 'parallel' ? { strategy: 'parallel', roles: steps } : { strategy: 'sequential', sequence: steps };
          const started = performance.now();
          const result = await harness.deliberate({ problem: 'Should we add a cache?', plan });
          if (result.isError) throw new Error(JSON.stringify(result.content));
          timings[kind].push(performance.now() - started);
        }
      }
    } finally {
      await harness.close();
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
    const parallel = median(timings.parallel) / CALL_MS;
    const sequential = median(timings.sequential) / CALL_MS;
    return {
      lines: [
        `| plan | median wall time | ratio to one call |`,
        `| --- | --- | --- |`,
        `| parallel (6 hats) | ${median(timings.parallel).toFixed(0)} ms | ${parallel.toFixed(2)}x |`,
        `| sequential (6 hats) | ${median(timings.sequential).toFixed(0)} ms | ${sequential.toFixed(2)}x |`,
        `sequential / parallel: ${(sequential / parallel).toFixed(2)}x (${RUNS} runs each, median)`,
      ],
      checks: [
        { name: 'parallel hats are concurrent', pass: parallel < 2, detail: `ratio ${parallel.toFixed(2)} (target < 2)` },
        {
          name: 'sequential hats take about 6 calls',
          pass: sequential >= 6 && sequential < 7,
          detail: `ratio ${sequential.toFixed(2)} (target 6-7)`,
        },
      ],
    };
  },
};

if (require.main === module) {
  void deliberationSection.run({ root: '', tempDir: '', progress: () => {} }).then((result) => {
    for (const line of result.lines) process.stdout.write(`${line}\n`);
    for (const check of result.checks) process.stdout.write(`${check.pass ? 'PASS' : 'FAIL'}  ${check.name}: ${check.detail}\n`);
    process.exitCode = result.checks.every((check) => check.pass) ? 0 : 1;
  });
}
