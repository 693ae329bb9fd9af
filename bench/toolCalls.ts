// Section: per-call latency and memory of our built CLI (durable file storage on) against the reference
// `sequentialthinking` server, both driven by the SDK Client over stdio from this one process.
//
// How it stays fair on a shared machine: in each round both servers run at once, each in a fresh process, and the
// client sends every thought to both, one after the other, swapping which goes first on every thought. Whatever
// else the machine is doing then slows both alike, where whole runs one after the other (an earlier version) let a
// busy moment land on one server only: the p50 ratio of a round moved between 0.7 and 0.9 with the load. Each
// round gives its own ratios; the checks use their median over the rounds.
import { readdirSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import {
  formatMs,
  median,
  percentile,
  positiveIntegerFromEnv,
  type BenchContext,
  type BenchSection,
  type BenchSectionResult,
} from './section';
import { PrecompiledOutputValidators } from './outputValidators';
import { DEFAULT_WORKLOAD, workloadCalls, type WorkloadOptions } from './workload';

/** Issue 21's product decision: the durable write we make and the reference does not is worth up to a quarter. */
export const P50_RATIO_TARGET = 1.25;
export const RSS_RATIO_TARGET = 1.0;
/** Rounds of the whole workload (BENCH_ROUNDS overrides); each gives one ratio, and the checks take their median. */
const DEFAULT_ROUNDS = 7;
const WARM_UP_THOUGHTS = 500;

export interface ServerUnderTest {
  label: string;
  command: string;
  args: string[];
  env: Record<string, string>;
}

export interface RunResult {
  p50: number;
  p99: number;
  /** 1000 / mean ms per call: the rate one client waiting for each answer gets. */
  callsPerSecond: number;
  rssMb: number;
  /** The server process's own CPU time (user + system, all its threads) per call: its share of a call, free of the client's. */
  serverCpuUsPerCall: number;
  /** p50 of the first WARM_UP_CALLS calls and of the rest: how much of the p50 is a fresh process's JIT warm-up. */
  p50Early: number;
  p50Late: number;
  /** Every call's duration in ms, in the order sent. */
  durations: number[];
  /** The client's Ajv compile of every listed outputSchema (an SDK 2 Client's first callTool does it), in ms. */
  outputSchemaCompileMs: number;
}

/** Calls counted as a fresh server's warm-up in the early/late split (V8 optimises our hot path within ~2,000 calls). */
const WARM_UP_CALLS = 1_000;

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

/**
 * CPU time of every thread of a process so far (the JIT's and the GC's helper threads too), from each task's
 * schedstat in nanoseconds: fine enough for one start-up, and unlike wall time not stretched by a busy machine.
 */
export function allThreadsCpuMs(pid: number): number {
  let nanoseconds = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      nanoseconds += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // The thread ended between the listing and the read: its time is gone with it.
    }
  }
  return nanoseconds / 1e6;
}

function baseEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  return env;
}

/** A server started and connected, with what its calls took so far. */
interface Connection {
  server: ServerUnderTest;
  client: Client;
  pid: number;
  durations: number[];
  cpuBeforeMs: number;
  outputSchemaCompileMs: number;
}

async function connect(server: ServerUnderTest): Promise<Connection> {
  const transport = new StdioClientTransport({ command: server.command, args: server.args, env: server.env, stderr: 'ignore' });
  const validators = new PrecompiledOutputValidators();
  const client = new Client({ name: 'thought-explorer-bench', version: '1.0.0' }, { jsonSchemaValidator: validators });
  await client.connect(transport);
  const pid = transport.pid;
  if (pid === null) {
    await client.close();
    throw new Error(`${server.label}: no server process`);
  }
  // tools/list first, as a real client does; the outputSchema validators compiled with it (see outputValidators.ts).
  const { tools } = await client.listTools();
  const outputSchemaCompileMs = validators.compileAll(tools);
  return { server, client, pid, durations: [], cpuBeforeMs: 0, outputSchemaCompileMs };
}

async function timedCall(connection: Connection, args: Record<string, unknown>): Promise<void> {
  const before = performance.now();
  const result = await connection.client.callTool({ name: 'sequentialthinking', arguments: args });
  connection.durations.push(performance.now() - before);
  if (result.isError)
    throw new Error(`${connection.server.label} refused thought ${String(args.thoughtNumber)}: ${JSON.stringify(result.content)}`);
}

/**
 * One round: every server in a fresh process, the whole workload sent to each of them, thought by thought (one call
 * at a time, the order of the servers swapped on every thought). Results in the order of `servers`.
 */
export async function runRound(servers: readonly ServerUnderTest[], workload: WorkloadOptions): Promise<RunResult[]> {
  const connections: Connection[] = [];
  try {
    for (const server of servers) connections.push(await connect(server));
    for (const connection of connections) connection.cpuBeforeMs = cpuTimeMs(connection.pid);
    let thought = 0;
    for (const args of workloadCalls(workload)) {
      const first = thought++ % connections.length;
      for (let offset = 0; offset < connections.length; offset++) await timedCall(connections[(first + offset) % connections.length], args);
    }
    return connections.map((connection) => {
      const rss = rssMb(connection.pid);
      const cpuMs = cpuTimeMs(connection.pid) - connection.cpuBeforeMs;
      const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
      const durations = sorted(connection.durations);
      const totalMs = durations.reduce((sum, duration) => sum + duration, 0);
      return {
        durations: connection.durations,
        p50Early: percentile(sorted(connection.durations.slice(0, WARM_UP_CALLS)), 0.5),
        p50Late: percentile(sorted(connection.durations.slice(WARM_UP_CALLS)), 0.5),
        p50: percentile(durations, 0.5),
        p99: percentile(durations, 0.99),
        callsPerSecond: (durations.length / totalMs) * 1000,
        rssMb: rss,
        serverCpuUsPerCall: (cpuMs * 1000) / durations.length,
        outputSchemaCompileMs: connection.outputSchemaCompileMs,
      };
    });
  } finally {
    for (const connection of connections) await connection.client.close();
  }
}

export function serversUnderTest(
  root: string,
  storageDir: (round: number) => string,
): { ours: (round: number) => ServerUnderTest; reference: ServerUnderTest } {
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

interface RoundResult {
  ours: RunResult;
  reference: RunResult;
}

const loadNow = () => loadavg()[0].toFixed(2);

export const toolCallSection: BenchSection = {
  title: 'sequentialthinking over stdio: thought-explorer (durable storage) vs the reference server',
  async run(context: BenchContext): Promise<BenchSectionResult> {
    const workload: WorkloadOptions = { ...DEFAULT_WORKLOAD };
    workload.thoughts = positiveIntegerFromEnv('BENCH_THOUGHTS') ?? workload.thoughts;
    const rounds = positiveIntegerFromEnv('BENCH_ROUNDS') ?? DEFAULT_ROUNDS;
    const servers = serversUnderTest(context.root, (round) => join(context.tempDir, `store-${round}`));
    const loadAtStart = loadNow();
    // Warm the client first: its code is JIT-compiled during the first calls, which would favour whichever server
    // those calls do not go to.
    context.progress(`warm-up: ${WARM_UP_THOUGHTS} thoughts to each server`);
    await runRound([servers.ours(0), servers.reference], { ...workload, thoughts: WARM_UP_THOUGHTS });
    const results: RoundResult[] = [];
    for (let round = 1; round <= rounds; round++) {
      context.progress(`round ${round}/${rounds}: ${workload.thoughts} thoughts to each server, interleaved`);
      // Which server opens the round alternates too (within a round the order alternates thought by thought).
      if (round % 2 === 1) {
        const [ours, reference] = await runRound([servers.ours(round), servers.reference], workload);
        results.push({ ours, reference });
      } else {
        const [reference, ours] = await runRound([servers.reference, servers.ours(round)], workload);
        results.push({ ours, reference });
      }
    }
    const ratio = (pick: (run: RunResult) => number) => results.map((result) => pick(result.ours) / pick(result.reference));
    const p50Ratios = ratio((run) => run.p50);
    const p50Ratio = median(p50Ratios);
    const p99Ratio = median(ratio((run) => run.p99));
    const rssRatio = median(ratio((run) => run.rssMb));
    const cpuRatio = median(ratio((run) => run.serverCpuUsPerCall));
    const throughputRatio = median(ratio((run) => run.callsPerSecond));
    const medianOf = (side: keyof RoundResult, pick: (run: RunResult) => number) =>
      formatMs(median(results.map((result) => pick(result[side]))));
    const lines = [
      `Workload: ${workload.thoughts} thoughts of ${workload.thoughtLength} characters, every 10th a revision, every 25th a branch; SDK Client over stdio. ` +
        `After a ${WARM_UP_THOUGHTS}-thought warm-up, ${rounds} rounds; in each, both servers start fresh and get every thought, one call at a time, alternating which server goes first on every thought.`,
      `Load average (1 min): ${loadAtStart} at the start, ${loadNow()} at the end, on ${cpus().length} cores.`,
      '',
      '| round | p50 ours | p50 reference | p50 ratio | p99 ours | p99 reference | RSS ours | RSS reference | server CPU per call ours | reference |',
      '|---|---|---|---|---|---|---|---|---|---|',
    ];
    results.forEach(({ ours, reference }, index) =>
      lines.push(
        `| ${index + 1} | ${formatMs(ours.p50)} | ${formatMs(reference.p50)} | ${p50Ratios[index].toFixed(2)} | ${formatMs(ours.p99)} | ${formatMs(reference.p99)} | ` +
          `${ours.rssMb.toFixed(1)} MB | ${reference.rssMb.toFixed(1)} MB | ${ours.serverCpuUsPerCall.toFixed(0)} µs | ${reference.serverCpuUsPerCall.toFixed(0)} µs |`,
      ),
    );
    lines.push(
      '',
      `Ratios ours/reference (median of the ${rounds} rounds' ratios): p50 ${p50Ratio.toFixed(2)} (rounds ${Math.min(...p50Ratios).toFixed(2)}–${Math.max(...p50Ratios).toFixed(2)}), ` +
        `p99 ${p99Ratio.toFixed(2)}, calls/s ${throughputRatio.toFixed(2)}, RSS ${rssRatio.toFixed(2)}, server CPU per call ${cpuRatio.toFixed(2)}`,
    );
    // Only meaningful when the rest is the larger part (BENCH_THOUGHTS may be set lower).
    if (workload.thoughts >= 2 * WARM_UP_CALLS) {
      lines.push(
        `p50 of the first ${WARM_UP_CALLS} calls of a fresh server / of the rest (medians of the rounds): ` +
          `ours ${medianOf('ours', (run) => run.p50Early)} / ${medianOf('ours', (run) => run.p50Late)}, ` +
          `reference ${medianOf('reference', (run) => run.p50Early)} / ${medianOf('reference', (run) => run.p50Late)}`,
      );
    }
    return {
      lines,
      checks: [
        {
          name: 'p50 per call vs reference',
          pass: p50Ratio <= P50_RATIO_TARGET,
          detail: `ratio ${p50Ratio.toFixed(2)}, median of ${rounds} rounds (target <= ${P50_RATIO_TARGET.toFixed(2)})`,
        },
        {
          name: `RSS after ${workload.thoughts} thoughts vs reference`,
          pass: rssRatio <= RSS_RATIO_TARGET,
          detail: `ratio ${rssRatio.toFixed(2)} (target <= ${RSS_RATIO_TARGET.toFixed(2)})`,
        },
      ],
    };
  },
};
