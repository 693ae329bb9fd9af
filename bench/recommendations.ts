// Section: what tool recommendations cost. The same `sequentialthinking` call (a QA step with a verification target)
// through a real MCP Client over the in-memory transport, on a durable store, once with a list of 200 available tools
// and once without (generic capabilities); for information also with a fresh copy of the list on every call, as over
// stdio or HTTP. Calls rotate between the servers in one run, so machine load falls on all alike; the check is the
// ratio of the medians with the list and without.
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/client';
import { ThinkingEngine } from '../src/engine/engine';
import type { ToolInfo } from '../src/engine/qaInput';
import { createServer } from '../src/mcp/server';
import { FileSessionStore } from '../src/storage/fileSessionStore';
import { formatMs, percentile, type BenchContext, type BenchSection, type BenchSectionResult } from './section';

export const RATIO_TARGET = 1.2;
const TOOLS = 200;
const CALLS = 2_000;
const WARM_UP = 300;
const quiet = () => {};

const VERBS = ['read', 'search', 'run', 'fetch', 'edit', 'list', 'get', 'create', 'update', 'query'];
const OBJECTS = [
  'file',
  'issue',
  'terminal command',
  'web page',
  'symbol',
  'test suite',
  'diagnostics',
  'commit',
  'database row',
  'calendar event',
];

/** 200 tools named and described the way MCP servers and VS Code extensions do. */
export function benchTools(count = TOOLS): ToolInfo[] {
  return Array.from({ length: count }, (_, index) => {
    const verb = VERBS[index % VERBS.length];
    const object = OBJECTS[Math.floor(index / VERBS.length) % OBJECTS.length];
    return {
      name: `server${index % 7}_${verb}_${object.replace(/\s+/g, '_')}_${index}`,
      description: `${verb[0].toUpperCase()}${verb.slice(1)} a ${object} in the current workspace or service, with paging and filters (tool ${index}).`,
    };
  });
}

async function connect(directory: string): Promise<{ client: Client; close: () => Promise<void> }> {
  const engine = new ThinkingEngine({
    store: new FileSessionStore(directory, { log: quiet }),
    log: quiet,
    limits: { maxThoughtsPerSession: 1_000_000 },
  });
  const created = createServer({ engine });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await created.server.connect(serverTransport);
  const client = new Client({ name: 'recs-bench', version: '1.0.0' });
  await client.connect(clientTransport);
  return {
    client,
    close: async () => {
      await client.close();
      created.cleanup();
    },
  };
}

function args(number: number, tools: ToolInfo[] | undefined): Record<string, unknown> {
  return {
    thought: `Step ${number}: check the installed version, then run the build and read the diagnostics.`,
    thoughtNumber: number,
    totalThoughts: CALLS + WARM_UP,
    nextThoughtNeeded: true,
    verificationTarget: 'Tailwind CSS version',
    currentStep: { stepDescription: 'Run `npm run build` and read the errors', expectedOutcome: 'A passing build' },
    ...(tools ? { availableTools: tools } : {}),
  };
}

type Kind = 'with' | 'fresh' | 'without';
const ORDERS: readonly Kind[][] = [
  ['with', 'fresh', 'without'],
  ['without', 'with', 'fresh'],
  ['fresh', 'without', 'with'],
];

export const recommendationSection: BenchSection = {
  title: 'Tool recommendations: a sequentialthinking call with 200 available tools vs without',
  async run({ tempDir, progress }: BenchContext): Promise<BenchSectionResult> {
    const tools = benchTools();
    const servers = {
      with: await connect(`${tempDir}/with`),
      fresh: await connect(`${tempDir}/fresh`),
      without: await connect(`${tempDir}/without`),
    };
    const durations: Record<Kind, number[]> = { with: [], fresh: [], without: [] };
    try {
      for (let number = 1; number <= CALLS + WARM_UP; number++) {
        // Rotate which goes first, so none always runs on a warmer cache.
        for (const kind of ORDERS[number % ORDERS.length]) {
          // "fresh": a new copy of the list each call, as a client sending JSON delivers it (made before the clock
          // starts, but its garbage is collected while calls run); "with": the same list object every call.
          const list = kind === 'with' ? tools : kind === 'fresh' ? structuredClone(tools) : undefined;
          const callArgs = args(number, list);
          const started = performance.now();
          const result = await servers[kind].client.callTool({ name: 'sequentialthinking', arguments: callArgs });
          const elapsed = performance.now() - started;
          if (result.isError) throw new Error(JSON.stringify(result.content));
          if (number > WARM_UP) durations[kind].push(elapsed);
        }
        if (number % 500 === 0) progress(`${number} calls each`);
      }
    } finally {
      for (const server of Object.values(servers)) await server.close();
    }
    const p50 = (kind: Kind) =>
      percentile(
        durations[kind].sort((a, b) => a - b),
        0.5,
      );
    const p99 = (kind: Kind) => percentile(durations[kind], 0.99);
    const ratio = p50('with') / p50('without');
    const freshRatio = p50('fresh') / p50('without');
    return {
      lines: [
        `| call (${CALLS} each, in-memory MCP, durable store) | p50 | p99 |`,
        '|---|---|---|',
        `| with ${TOOLS} available tools (same list each call) | ${formatMs(p50('with'))} | ${formatMs(p99('with'))} |`,
        `| with ${TOOLS} available tools (a fresh copy each call) | ${formatMs(p50('fresh'))} | ${formatMs(p99('fresh'))} |`,
        `| without a tool list (generic) | ${formatMs(p50('without'))} | ${formatMs(p99('without'))} |`,
        '',
        `A fresh copy each call: ratio ${freshRatio.toFixed(2)} (for information; includes collecting the copies' garbage).`,
      ],
      checks: [
        {
          name: `p50 with ${TOOLS} tools / without`,
          pass: ratio <= RATIO_TARGET,
          detail: `ratio ${ratio.toFixed(2)} (target <= ${RATIO_TARGET})`,
        },
      ],
    };
  },
};
