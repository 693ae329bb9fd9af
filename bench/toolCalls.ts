// Section: per-call latency and memory of our built CLI (durable file storage on) against the reference
// `sequentialthinking` server, both driven by the SDK Client over stdio, in the same run, alternating, twice each.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { formatMs, percentile, type BenchContext, type BenchSection, type BenchSectionResult } from './section';
import { DEFAULT_WORKLOAD, workloadCalls, type WorkloadOptions } from './workload';

export const P50_RATIO_TARGET = 0.8;
export const RSS_RATIO_TARGET = 1.0;
const ROUNDS = 2;
const WARM_UP_THOUGHTS = 500;

interface ServerUnderTest {
  label: string;
  command: string;
  args: string[];
  env: Record<string, string>;
}

interface RunResult {
  p50: number;
  p99: number;
  callsPerSecond: number;
  rssMb: number;
  /** The server process's own CPU time (user + system) per call: its share of a call, free of the client's. */
  serverCpuUsPerCall: number;
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /VmRSS:\s+(\d+)\s+kB/.exec(status);
  if (!match) throw new Error(`no VmRSS in /proc/${pid}/status`);
  return Number(match[1]) / 1024;
}

/** User + system CPU time of a process so far, from /proc/<pid>/stat (in clock ticks of 10 ms on Linux). */
function cpuTimeMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  const ticksPerSecond = 100;
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
}

function baseEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  return env;
}

/** Starts the server, runs the whole workload through one Client, reads the server's RSS, stops it. */
export async function runWorkload(server: ServerUnderTest, workload: WorkloadOptions): Promise<RunResult> {
  const transport = new StdioClientTransport({ command: server.command, args: server.args, env: server.env, stderr: 'ignore' });
  const client = new Client({ name: 'thought-explorer-bench', version: '1.0.0' });
  await client.connect(transport);
  try {
    const pid = transport.pid;
    if (pid === null) throw new Error(`${server.label}: no server process`);
    // tools/list first, as a real client does: it also arms the Client's outputSchema validation.
    await client.listTools();
    const durations: number[] = [];
    const cpuBefore = cpuTimeMs(pid);
    const started = performance.now();
    for (const args of workloadCalls(workload)) {
      const before = performance.now();
      const result = await client.callTool({ name: 'sequentialthinking', arguments: args });
      durations.push(performance.now() - before);
      if (result.isError) throw new Error(`${server.label} refused thought ${String(args.thoughtNumber)}: ${JSON.stringify(result.content)}`);
    }
    const elapsed = performance.now() - started;
    const rss = rssMb(pid);
    const cpuMs = cpuTimeMs(pid) - cpuBefore;
    durations.sort((a, b) => a - b);
    return {
      p50: percentile(durations, 0.5),
      p99: percentile(durations, 0.99),
      callsPerSecond: (durations.length / elapsed) * 1000,
      rssMb: rss,
      serverCpuUsPerCall: (cpuMs * 1000) / durations.length,
    };
  } finally {
    await client.close();
  }
}

export function serversUnderTest(root: string, storageDir: (round: number) => string): { ours: (round: number) => ServerUnderTest; reference: ServerUnderTest } {
  const env = baseEnv();
  return {
    ours: (round) => ({
      label: 'thought-explorer',
      command: process.execPath,
      args: [join(root, 'dist', 'cli.js'), '--storage-path', storageDir(round)],
      env,
    }),
    reference: {
      label: 'reference',
      command: process.execPath,
      args: [join(root, 'node_modules', '@modelcontextprotocol', 'server-sequential-thinking', 'dist', 'index.js')],
      env: { ...env, DISABLE_THOUGHT_LOGGING: 'true' },
    },
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export const toolCallSection: BenchSection = {
  title: 'sequentialthinking over stdio: thought-explorer (durable storage) vs the reference server',
  async run(context: BenchContext): Promise<BenchSectionResult> {
    const workload: WorkloadOptions = { ...DEFAULT_WORKLOAD };
    const thoughtsOverride = Number(process.env.BENCH_THOUGHTS);
    if (Number.isInteger(thoughtsOverride) && thoughtsOverride > 0) workload.thoughts = thoughtsOverride;
    const servers = serversUnderTest(context.root, (round) => join(context.tempDir, `store-${round}`));
    const results: { ours: RunResult[]; reference: RunResult[] } = { ours: [], reference: [] };
    // Warm the client first (its code is JIT-compiled during the first run, which would favour whichever server
    // goes second), then alternate in ABBA order so neither server always runs first.
    context.progress(`warm-up: ${WARM_UP_THOUGHTS} thoughts to each server`);
    await runWorkload(servers.ours(0), { ...workload, thoughts: WARM_UP_THOUGHTS });
    await runWorkload(servers.reference, { ...workload, thoughts: WARM_UP_THOUGHTS });
    for (let round = 1; round <= ROUNDS; round++) {
      const order: ('ours' | 'reference')[] = round % 2 === 1 ? ['ours', 'reference'] : ['reference', 'ours'];
      for (const which of order) {
        context.progress(`round ${round}/${ROUNDS}: ${which === 'ours' ? 'thought-explorer' : 'reference'}, ${workload.thoughts} thoughts`);
        results[which].push(await runWorkload(which === 'ours' ? servers.ours(round) : servers.reference, workload));
      }
    }
    const lines = [
      `Workload: ${workload.thoughts} thoughts of ${workload.thoughtLength} characters, every 10th a revision, every 25th a branch; SDK Client over stdio; after a ${WARM_UP_THOUGHTS}-thought warm-up of each, ${ROUNDS} rounds, alternating (ABBA).`,
      '',
      '| server | round | p50 | p99 | calls/s | RSS after | server CPU per call |',
      '|---|---|---|---|---|---|---|',
    ];
    for (const [label, runs] of [['thought-explorer', results.ours], ['reference', results.reference]] as const) {
      runs.forEach((run, index) =>
        lines.push(`| ${label} | ${index + 1} | ${formatMs(run.p50)} | ${formatMs(run.p99)} | ${run.callsPerSecond.toFixed(0)} | ${run.rssMb.toFixed(1)} MB | ${run.serverCpuUsPerCall.toFixed(0)} µs |`),
      );
    }
    const p50Ratio = median(results.ours.map((run) => run.p50)) / median(results.reference.map((run) => run.p50));
    const p99Ratio = median(results.ours.map((run) => run.p99)) / median(results.reference.map((run) => run.p99));
    const rssRatio = median(results.ours.map((run) => run.rssMb)) / median(results.reference.map((run) => run.rssMb));
    const cpuRatio = median(results.ours.map((run) => run.serverCpuUsPerCall)) / median(results.reference.map((run) => run.serverCpuUsPerCall));
    const throughputRatio = median(results.ours.map((run) => run.callsPerSecond)) / median(results.reference.map((run) => run.callsPerSecond));
    lines.push('', `Ratios ours/reference (medians of the rounds): p50 ${p50Ratio.toFixed(2)}, p99 ${p99Ratio.toFixed(2)}, calls/s ${throughputRatio.toFixed(2)}, RSS ${rssRatio.toFixed(2)}, server CPU per call ${cpuRatio.toFixed(2)}`);
    return {
      lines,
      checks: [
        { name: 'p50 per call vs reference', pass: p50Ratio <= P50_RATIO_TARGET, detail: `ratio ${p50Ratio.toFixed(2)} (target <= ${P50_RATIO_TARGET.toFixed(2)})` },
        { name: `RSS after ${workload.thoughts} thoughts vs reference`, pass: rssRatio <= RSS_RATIO_TARGET, detail: `ratio ${rssRatio.toFixed(2)} (target <= ${RSS_RATIO_TARGET.toFixed(2)})` },
      ],
    };
  },
};
