// Two builds of our CLI against each other, the way toolCalls.ts compares ours with the reference: both servers in one
// round, fresh processes, durable storage on, every thought sent to both, alternating which goes first. Made for
// changes worth a few percent, which the load of a shared machine hides when whole bench runs are compared: the ratio
// of two of our builds within one round cancels what the machine is doing.
//
//   git stash && npm run build && cp dist/cli.js /tmp/before.js && git stash pop && npm run build
//   node --import tsx bench/compareBuilds.ts /tmp/before.js dist/cli.js      (BENCH_ROUNDS, BENCH_THOUGHTS override)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { median } from './section';
import { runRound, type RunResult, type ServerUnderTest } from './toolCalls';

function positiveInteger(value: string | undefined, fallback: number): number {
  const number = Number(value);
  return Number.isInteger(number) && number > 0 ? number : fallback;
}

async function main(): Promise<void> {
  const [before, after] = process.argv.slice(2).map((file) => resolve(file));
  if (before === undefined || after === undefined) throw new Error('usage: compareBuilds.ts <before/cli.js> <after/cli.js>');
  const rounds = positiveInteger(process.env.BENCH_ROUNDS, 7);
  const workload = { thoughts: positiveInteger(process.env.BENCH_THOUGHTS, 3_000), thoughtLength: 400 };
  const tempDir = mkdtempSync(join(tmpdir(), 'thought-explorer-compare-'));
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  const server = (label: string, file: string, round: number): ServerUnderTest => ({
    label,
    command: process.execPath,
    args: [file, '--storage-path', join(tempDir, `${label}-${round}`)],
    env,
  });
  const ratios: Record<'p50' | 'p99' | 'cpu' | 'rss', number[]> = { p50: [], p99: [], cpu: [], rss: [] };
  try {
    // Round 0 warms this process's client and is not counted.
    for (let round = 0; round <= rounds; round++) {
      let results: RunResult[];
      if (round % 2 === 1) results = await runRound([server('before', before, round), server('after', after, round)], workload);
      else results = (await runRound([server('after', after, round), server('before', before, round)], workload)).reverse();
      if (round === 0) continue;
      const [old, next] = results;
      ratios.p50.push(next.p50 / old.p50);
      ratios.p99.push(next.p99 / old.p99);
      ratios.cpu.push(next.serverCpuUsPerCall / old.serverCpuUsPerCall);
      ratios.rss.push(next.rssMb / old.rssMb);
      process.stderr.write(`  … round ${round}/${rounds}: p50 after/before ${(next.p50 / old.p50).toFixed(2)}\n`);
    }
  } finally {
    rmSync(tempDir, { recursive: true, force: true });
  }
  const describe = (values: number[]) =>
    `${median(values).toFixed(3)} (rounds ${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)})`;
  process.stdout.write(
    `after/before, median of ${rounds} rounds of ${workload.thoughts} thoughts: p50 ${describe(ratios.p50)}, p99 ${describe(ratios.p99)}, ` +
      `server CPU per call ${describe(ratios.cpu)}, RSS ${describe(ratios.rss)}\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
