// Section: what the model reads from us against the reference `sequentialthinking` server, in o200k tokens (the tool
// definitions that ride along with every model request, and the replies that stay in the conversation), at each reply
// detail level; and the raw call beside it (start-up, the first calls of a fresh process, p50 at steady state, RSS).
// Both servers run in this one run, driven by the SDK Client over stdio (the built CLI, as users run it).
// Also: what each kind of client is offered (app-only tools to MCP Apps hosts, deliberate where it can run), short
// plain sessions as agent CLIs send them, and two conversations over one connection as VS Code sends them.
// BENCH_OURS_CLI measures another build of ours (e.g. the one before a change); BENCH_SKIP_RAW=1 leaves out the raw call.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { CallToolResult, ClientCapabilities, Tool } from '@modelcontextprotocol/client';
import { formatMs, percentile, type BenchCheck, type BenchContext, type BenchSection, type BenchSectionResult } from './section';
import {
  P50_RATIO_TARGET,
  RSS_RATIO_TARGET,
  allThreadsCpuMs,
  runRound,
  serversUnderTest,
  type RunResult,
  type ServerUnderTest,
} from './toolCalls';
import { DEFAULT_WORKLOAD } from './workload';

/**
 * The budgets: `sequentialthinking` no larger than the reference's; everything a client without MCP Apps or sampling
 * sends to its model at most 1.25× it; the mean reply of a plain 4-thought session at most 1.25× the reference's, of
 * the 30-thought one no more than the reference's.
 */
const DEFINITION_BUDGET_RATIO = 1.0;
const ALL_DEFINITIONS_BUDGET_RATIO = 1.25;
const SHORT_REPLY_BUDGET_RATIO = 1.25;
const LONG_REPLY_BUDGET_RATIO = 1.0;
/** What a host that renders MCP Apps declares (ext-apps' extension key, as VS Code sends it). */
const MCP_APPS: ClientCapabilities = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } };
const CONVERSATION_KEY = 'vscode.conversationId';
/** Start-up no slower than the reference's; p50 and RSS targets as in the tool-call section. */
const STARTUP_RATIO_TARGET = 1.0;
const DETAIL_LEVELS = ['compact', 'standard', 'full'] as const;
const FIRST_CALLS = 30;
const STARTUPS = 9;

export type CountTokens = (text: string) => number;

/**
 * The o200k_base tokenizer of the dev dependency gpt-tokenizer. The specifier is held in a variable so the bench
 * type-checks on a checkout where dev dependencies are not installed; there the section says what is missing.
 */
export function loadTokenizer(): CountTokens {
  const specifier = 'gpt-tokenizer/encoding/o200k_base';
  try {
    const module = createRequire(__filename)(specifier) as { countTokens: CountTokens };
    return module.countTokens;
  } catch (error) {
    throw new Error('the context section counts tokens with the dev dependency gpt-tokenizer (npm install)', { cause: error });
  }
}

/** What the model reads of a tool: its name, description and input schema (as the issue measures it). */
export function definitionTokens(tool: Tool, count: CountTokens): number {
  return count(tool.name) + count(tool.description ?? '') + count(JSON.stringify(tool.inputSchema));
}

/** App-only tools (MCP Apps `visibility: ["app"]`) are kept from the model by the host. */
function modelVisible(tool: Tool): boolean {
  const ui = (tool._meta as { ui?: { visibility?: unknown } } | undefined)?.ui;
  return !(Array.isArray(ui?.visibility) && !ui.visibility.includes('model'));
}

export async function connect(
  server: ServerUnderTest,
  capabilities: ClientCapabilities = {},
): Promise<{ client: Client; pid: number | null }> {
  const transport = new StdioClientTransport({ command: server.command, args: server.args, env: server.env, stderr: 'ignore' });
  const client = new Client({ name: 'thought-explorer-bench', version: '1.0.0' }, { capabilities });
  if (capabilities.sampling) client.setRequestHandler('sampling/createMessage', () => Promise.reject(new Error('the bench runs no model')));
  await client.connect(transport);
  return { client, pid: transport.pid };
}

/** A scripted session: the calls an agent makes, one thought each. */
interface Script {
  label: string;
  calls: Record<string, unknown>[];
}

function thought(number: number, total: number, text: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { thought: text, thoughtNumber: number, totalThoughts: total, nextThoughtNeeded: number < total, ...extra };
}

/** 30 thoughts, linear (the default): thought 12 revises thought 8, thoughts 20-23 branch from 15. */
function linearScript(): Script {
  const calls: Record<string, unknown>[] = [];
  for (let number = 1; number <= 30; number++) {
    const extra: Record<string, unknown> = {};
    if (number === 12) Object.assign(extra, { isRevision: true, revisesThought: 8 });
    if (number >= 20 && number <= 23) Object.assign(extra, { branchFromThought: 15, branchId: 'alt-cache' });
    calls.push(thought(number, 30, `Step ${number}: weigh the cache against a queue for the write path, with the numbers so far.`, extra));
  }
  return { label: 'linear, 30 thoughts (revision, branch)', calls };
}

/** A plain session as agent CLIs send it (no strategy): `total` thoughts, one revision, one branch, ending at the last. */
function plainScript(total: number): Script {
  const calls: Record<string, unknown>[] = [];
  const revisionAt = Math.ceil(total / 2) + 1;
  for (let number = 1; number <= total; number++) {
    const extra: Record<string, unknown> = {};
    if (number === revisionAt) Object.assign(extra, { isRevision: true, revisesThought: 1 });
    if (number === total) Object.assign(extra, { branchFromThought: 2, branchId: 'alt' });
    calls.push(thought(number, total, `Step ${number}: check the cache hit rate against the numbers so far.`, extra));
  }
  return { label: `plain, ${total} thoughts (revision, branch)`, calls };
}

/** 12 thoughts of ReAct: reason, act, observe in turns; the session moves along its stages on its own. */
function reactScript(): Script {
  const calls = Array.from({ length: 12 }, (_, index) =>
    thought(
      index + 1,
      12,
      `ReAct step ${index + 1}: what is known, the next action, and what it showed.`,
      index === 0 ? { strategy: 'react' } : {},
    ),
  );
  return { label: 'react, 12 thoughts', calls };
}

/** 15 thoughts of tree of thoughts: three approaches branch from thought 3, one is chosen. */
function treeScript(): Script {
  const calls: Record<string, unknown>[] = [];
  for (let number = 1; number <= 15; number++) {
    const extra: Record<string, unknown> = number === 1 ? { strategy: 'tree_of_thoughts' } : {};
    if (number >= 4 && number <= 9) Object.assign(extra, { branchFromThought: 3, branchId: ['a', 'b', 'c'][Math.floor((number - 4) / 2)] });
    calls.push(thought(number, 15, `Tree step ${number}: develop or judge this approach against the others.`, extra));
  }
  return { label: 'tree_of_thoughts, 15 thoughts (3 branches)', calls };
}

/** The reference knows no strategies: it gets the same thoughts without `strategy`. */
function forReference(args: Record<string, unknown>): Record<string, unknown> {
  const { strategy: _strategy, ...rest } = args;
  return rest;
}

function replyText(result: CallToolResult): string {
  return result.content.map((item) => (item.type === 'text' ? item.text : '')).join('');
}

/** Replies that carried a warning, as "label: thought N (level)". */
const warnedReplies: string[] = [];

/** Tokens of each reply's text (what VS Code hands the model), over one scripted session in a fresh server. */
async function replyTokens(server: ServerUnderTest, script: Script, count: CountTokens, reference: boolean): Promise<number[]> {
  const { client } = await connect(server);
  try {
    const tokens: number[] = [];
    for (const args of script.calls) {
      const result = (await client.callTool({
        name: 'sequentialthinking',
        arguments: reference ? forReference(args) : args,
      })) as CallToolResult;
      if (result.isError) throw new Error(`${server.label} refused ${JSON.stringify(args)}: ${replyText(result)}`);
      const warnings = reference ? undefined : (JSON.parse(replyText(result)) as { warnings?: unknown[] }).warnings;
      if (Array.isArray(warnings) && warnings.length > 0)
        warnedReplies.push(`${script.label}: thought ${String(args.thoughtNumber)}: ${String(warnings[0])}`);
      tokens.push(count(replyText(result)));
    }
    return tokens;
  } finally {
    await client.close();
  }
}

/**
 * Two chats over one connection, as VS Code sends them: their plain 4-thought sessions interleaved, no sessionId,
 * each call naming its conversation. Whether each kept its own session, and the mean reply.
 */
async function twoConversations(server: ServerUnderTest, count: CountTokens): Promise<{ apart: boolean; meanTokens: number }> {
  const { client } = await connect(server, MCP_APPS);
  try {
    const script = plainScript(4);
    const sessionOf = new Map<string, Set<unknown>>();
    const tokens: number[] = [];
    let lengthsRight = true;
    for (const args of script.calls) {
      for (const chat of ['chat-a', 'chat-b']) {
        const result = (await client.callTool({
          name: 'sequentialthinking',
          arguments: { ...args, thought: `${chat}: ${String(args.thought)}` },
          _meta: { [CONVERSATION_KEY]: chat },
        })) as CallToolResult;
        if (result.isError) throw new Error(`${server.label} refused a thought of ${chat}: ${replyText(result)}`);
        const reply = JSON.parse(replyText(result)) as Record<string, unknown>;
        if (reply.sessionId !== undefined) (sessionOf.get(chat) ?? sessionOf.set(chat, new Set()).get(chat)!).add(reply.sessionId);
        if (reply.thoughtHistoryLength !== args.thoughtNumber) lengthsRight = false;
        tokens.push(count(replyText(result)));
      }
    }
    const [a, b] = ['chat-a', 'chat-b'].map((chat) => [...(sessionOf.get(chat) ?? [])]);
    const apart = lengthsRight && a.length === 1 && b.length === 1 && a[0] !== b[0];
    return { apart, meanTokens: mean(tokens) };
  } finally {
    await client.close();
  }
}

const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
const median = (values: readonly number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    0.5,
  );
const ratioText = (ours: number, reference: number) => `${(ours / reference).toFixed(2)}×`;

/** Spawn → initialize answered: the wall time, and the server's CPU time (all its threads) by then. */
async function startup(server: ServerUnderTest): Promise<{ ms: number; cpuMs: number }> {
  const before = performance.now();
  const { client, pid } = await connect(server);
  const ms = performance.now() - before;
  const cpuMs = pid === null ? Number.NaN : allThreadsCpuMs(pid);
  await client.close();
  return { ms, cpuMs };
}

export const contextSection: BenchSection = {
  title: 'context: what the model reads (o200k tokens) and the raw call, against the reference server',
  async run(context: BenchContext): Promise<BenchSectionResult> {
    const count = loadTokenizer();
    const servers = serversUnderTest(context.root, (round) => join(context.tempDir, `store-${round}`));
    const oursCli = process.env.BENCH_OURS_CLI;
    const ours = (extraArgs: string[], round: number): ServerUnderTest => {
      const base = servers.ours(round);
      const args = oursCli ? [oursCli, ...base.args.slice(1)] : base.args;
      return { ...base, args: [...args, ...extraArgs] };
    };
    warnedReplies.length = 0;
    const lines: string[] = [];
    const checks: BenchCheck[] = [];

    // Tool definitions.
    context.progress('tool definitions');
    const listed = async (server: ServerUnderTest, capabilities: ClientCapabilities = {}) => {
      const { client } = await connect(server, capabilities);
      try {
        return (await client.listTools()).tools;
      } finally {
        await client.close();
      }
    };
    const referenceTools = await listed(servers.reference);
    const ourTools = await listed(ours([], 0));
    const referenceDefinition = definitionTokens(
      referenceTools.find((tool) => tool.name === 'sequentialthinking')!,
      count,
    );
    lines.push('Tool definitions (name + description + input schema, as tools/list gives them):', '');
    lines.push('| tool | reference | ours | ratio to the reference tool |', '|---|---|---|---|');
    let visibleTotal = 0;
    for (const tool of ourTools) {
      const tokens = definitionTokens(tool, count);
      const visible = modelVisible(tool);
      if (visible) visibleTotal += tokens;
      const referenceTokens = tool.name === 'sequentialthinking' ? String(referenceDefinition) : '–';
      lines.push(
        `| ${tool.name}${visible ? '' : ' (app-only)'} | ${referenceTokens} | ${tokens} | ${ratioText(tokens, referenceDefinition)} |`,
      );
    }
    const ourDefinition = definitionTokens(
      ourTools.find((tool) => tool.name === 'sequentialthinking')!,
      count,
    );
    lines.push(
      `| all model-visible tools | ${referenceDefinition} | ${visibleTotal} | ${ratioText(visibleTotal, referenceDefinition)} |`,
      '',
    );
    // What each kind of client is offered; a client that ignores `visibility: ["app"]` sends all of it to its model.
    context.progress('tool definitions by client');
    const offered = async (label: string, server: ServerUnderTest, capabilities: ClientCapabilities) => {
      const tools = await listed(server, capabilities);
      const tokens = tools.reduce((sum, tool) => sum + definitionTokens(tool, count), 0);
      return { label, names: tools.map((tool) => tool.name).sort(), tokens };
    };
    const byClient = [
      await offered('no MCP Apps, no sampling (Claude Code, Codex, Gemini CLI, …)', ours([], 0), {}),
      await offered('declares MCP Apps', ours([], 0), MCP_APPS),
      await offered('declares sampling', ours([], 0), { sampling: {} }),
      await offered('no capabilities, --model-endpoint set', ours(['--model-endpoint', 'http://127.0.0.1:9/v1', '--model', 'm'], 0), {}),
    ];
    lines.push('Offered by client (all listed definitions, which a client ignoring visibility sends to its model):', '');
    lines.push('| client | tools | tokens | ratio to the reference tool |', '|---|---|---|---|');
    for (const row of byClient)
      lines.push(`| ${row.label} | ${row.names.join(', ')} | ${row.tokens} | ${ratioText(row.tokens, referenceDefinition)} |`);
    lines.push('');
    const [plainClient, appsClient, samplingClient, endpointClient] = byClient;
    const appOnly = (names: string[]) => names.some((name) => name.startsWith('thought_graph_'));
    checks.push(
      {
        name: 'sequentialthinking definition vs reference',
        pass: ourDefinition <= DEFINITION_BUDGET_RATIO * referenceDefinition,
        detail: `${ourDefinition} against ${referenceDefinition} tokens (target <= ${DEFINITION_BUDGET_RATIO.toFixed(1)}×)`,
      },
      {
        name: 'all definitions a client without MCP Apps or sampling sends to its model vs reference',
        pass: plainClient.tokens <= ALL_DEFINITIONS_BUDGET_RATIO * referenceDefinition,
        detail: `${plainClient.tokens} against ${referenceDefinition} tokens (target <= ${ALL_DEFINITIONS_BUDGET_RATIO.toFixed(2)}×)`,
      },
      {
        name: 'app-only tools only to a client declaring MCP Apps',
        pass: !appOnly(plainClient.names) && !appOnly(samplingClient.names) && appOnly(appsClient.names),
        detail: byClient.map((row) => `${row.label}: ${appOnly(row.names) ? 'listed' : 'not listed'}`).join('; '),
      },
      {
        name: 'deliberate only where it can run (sampling or a model endpoint)',
        pass:
          !plainClient.names.includes('deliberate') &&
          !appsClient.names.includes('deliberate') &&
          samplingClient.names.includes('deliberate') &&
          endpointClient.names.includes('deliberate'),
        detail: byClient.map((row) => `${row.label}: ${row.names.includes('deliberate') ? 'listed' : 'not listed'}`).join('; '),
      },
    );

    // Replies of scripted sessions, at each detail level.
    const scripts = [plainScript(4), plainScript(8), linearScript(), reactScript(), treeScript()];
    const compactMeans = new Map<string, { ours: number; reference: number }>();
    lines.push('Replies (mean tokens of the reply text per call; each session in a fresh server):', '');
    lines.push(`| session | reference | ${DETAIL_LEVELS.map((level) => `${level} | ratio`).join(' | ')} |`);
    lines.push(`|---|---|${DETAIL_LEVELS.map(() => '---|---').join('|')}|`);
    const missingLevels: string[] = [];
    let round = 1;
    for (const script of scripts) {
      context.progress(`replies: ${script.label}`);
      const referenceMean = mean(await replyTokens(servers.reference, script, count, true));
      const cells: string[] = [];
      for (const level of DETAIL_LEVELS) {
        let tokens: number[];
        try {
          tokens = await replyTokens(ours(['--reply-detail', level], round++), script, count, false);
        } catch {
          // A build without --reply-detail exits at once with a usage error: its replies are measured as they are below.
          if (!missingLevels.includes(level)) missingLevels.push(level);
          cells.push(`n/a | –`);
          continue;
        }
        if (level === 'compact') compactMeans.set(script.label, { ours: mean(tokens), reference: referenceMean });
        cells.push(`${mean(tokens).toFixed(1)} | ${ratioText(mean(tokens), referenceMean)}`);
      }
      lines.push(`| ${script.label} | ${referenceMean.toFixed(1)} | ${cells.join(' | ')} |`);
    }
    if (missingLevels.length > 0) {
      lines.push('', `This build has no --reply-detail; its replies as they are:`, '');
      for (const script of scripts) {
        const referenceMean = mean(await replyTokens(servers.reference, script, count, true));
        const oursMean = mean(await replyTokens(ours([], round++), script, count, false));
        lines.push(
          `- ${script.label}: reference ${referenceMean.toFixed(0)}, ours ${oursMean.toFixed(0)} (${ratioText(oursMean, referenceMean)})`,
        );
      }
    }
    lines.push('');
    const replyCheck = (script: Script, target: number): BenchCheck => {
      const figures = compactMeans.get(script.label);
      const ratio = figures ? figures.ours / figures.reference : Number.NaN;
      return {
        name: `mean reply, ${script.label}, compact vs reference`,
        pass: ratio <= target,
        detail: figures
          ? `${figures.ours.toFixed(1)} against ${figures.reference.toFixed(1)} tokens, ${ratio.toFixed(2)}× (target <= ${target.toFixed(2)}×)`
          : 'not measured',
      };
    };
    // The plain and linear scripts use the tool as the reference documents it: correct sessions, no warning due. The
    // strategy scripts do not follow every stage's guidance (they send no stage), so their warnings are listed only.
    const correct = [scripts[0], scripts[1], scripts[2]].map((script) => script.label);
    const isCorrect = (entry: string) => correct.some((label) => entry.startsWith(`${label}:`));
    const wronglyWarned = warnedReplies.filter(isCorrect);
    const otherWarnings = [...new Set(warnedReplies.filter((entry) => !isCorrect(entry)))];
    if (otherWarnings.length > 0) lines.push(`Warnings in the strategy scripts (any level): ${otherWarnings.slice(0, 4).join('; ')}`, '');
    checks.push(replyCheck(scripts[0], SHORT_REPLY_BUDGET_RATIO), replyCheck(scripts[2], LONG_REPLY_BUDGET_RATIO), {
      name: 'no reply of a correct session (the plain and linear scripts, any level) carries a warning',
      pass: wronglyWarned.length === 0,
      detail: wronglyWarned.length === 0 ? 'none did' : `warned: ${[...new Set(wronglyWarned)].slice(0, 6).join('; ')}`,
    });

    context.progress('two conversations over one connection');
    const conversations = await twoConversations(ours([], round++), count);
    const referenceShort = compactMeans.get(scripts[0].label)?.reference ?? Number.NaN;
    lines.push(
      `Two conversations over one connection (VS Code's \`${CONVERSATION_KEY}\`), plain 4-thought sessions interleaved without sessionId: ` +
        `${conversations.apart ? 'each kept its own session' : 'their thoughts crossed'}; mean reply ${conversations.meanTokens.toFixed(1)} tokens ` +
        `(${ratioText(conversations.meanTokens, referenceShort)} the reference's 4-thought mean).`,
      '',
    );
    checks.push({
      name: 'two conversations over one connection keep their own sessions',
      pass: conversations.apart,
      detail: conversations.apart ? 'apart' : 'crossed',
    });
    if (process.env.BENCH_SKIP_RAW === '1') return { lines, checks };

    // The raw call.
    context.progress(`start-up: ${STARTUPS} spawns of each server, alternating`);
    const startups: { ours: number[]; reference: number[] } = { ours: [], reference: [] };
    const startupCpu: { ours: number[]; reference: number[] } = { ours: [], reference: [] };
    for (let index = 0; index < STARTUPS; index++) {
      const order = index % 2 === 0 ? (['ours', 'reference'] as const) : (['reference', 'ours'] as const);
      for (const side of order) {
        const { ms, cpuMs } = await startup(side === 'ours' ? ours([], round++) : servers.reference);
        startups[side].push(ms);
        startupCpu[side].push(cpuMs);
      }
    }
    const thoughts = Number(process.env.BENCH_THOUGHTS) > 0 ? Number(process.env.BENCH_THOUGHTS) : DEFAULT_WORKLOAD.thoughts;
    const rounds = Number(process.env.BENCH_ROUNDS) > 0 ? Number(process.env.BENCH_ROUNDS) : 3;
    const steadyFrom = Math.floor(thoughts * 0.4);
    const results: { ours: RunResult; reference: RunResult }[] = [];
    for (let index = 0; index < rounds; index++) {
      context.progress(`raw call: round ${index + 1}/${rounds}, ${thoughts} thoughts to each server, interleaved`);
      if (index % 2 === 0) {
        const [oursRun, referenceRun] = await runRound([ours([], round++), servers.reference], { ...DEFAULT_WORKLOAD, thoughts });
        results.push({ ours: oursRun, reference: referenceRun });
      } else {
        const [referenceRun, oursRun] = await runRound([servers.reference, ours([], round++)], { ...DEFAULT_WORKLOAD, thoughts });
        results.push({ ours: oursRun, reference: referenceRun });
      }
    }
    const p50Of = (durations: number[], from: number, to: number) => median(durations.slice(from, to));
    const figure = (pick: (run: RunResult) => number) => ({
      ours: median(results.map((result) => pick(result.ours))),
      reference: median(results.map((result) => pick(result.reference))),
      ratio: median(results.map((result) => pick(result.ours) / pick(result.reference))),
    });
    const steady = figure((run) => p50Of(run.durations, steadyFrom, thoughts));
    const first = figure((run) => p50Of(run.durations, 0, FIRST_CALLS));
    const firstMean = figure((run) => mean(run.durations.slice(0, FIRST_CALLS)));
    const rss = figure((run) => run.rssMb);
    const outputCompile = figure((run) => run.outputSchemaCompileMs);
    const startupWall = { ours: median(startups.ours), reference: median(startups.reference) };
    const startupRatio = startupWall.ours / startupWall.reference;
    const cpuAtStartup = { ours: median(startupCpu.ours), reference: median(startupCpu.reference) };
    lines.push(
      `Raw call (${rounds} rounds of a ${thoughts}-thought session, both servers fresh in each, calls interleaved; medians of the rounds):`,
      '',
      '| figure | reference | ours | ratio |',
      '|---|---|---|---|',
      `| start-up, spawn → initialized (median of ${STARTUPS}) | ${formatMs(startupWall.reference)} | ${formatMs(startupWall.ours)} | ${startupRatio.toFixed(2)} |`,
      `| server CPU (all threads) by then, less moved by the machine's load | ${formatMs(cpuAtStartup.reference)} | ` +
        `${formatMs(cpuAtStartup.ours)} | ${(cpuAtStartup.ours / cpuAtStartup.reference).toFixed(2)} |`,
      `| p50 of the first ${FIRST_CALLS} calls of a fresh process | ${formatMs(first.reference)} | ${formatMs(first.ours)} | ${first.ratio.toFixed(2)} |`,
      `| mean of the first ${FIRST_CALLS} calls | ${formatMs(firstMean.reference)} | ${formatMs(firstMean.ours)} | ${firstMean.ratio.toFixed(2)} |`,
      `| p50 at steady state (calls ${steadyFrom + 1}–${thoughts}) | ${formatMs(steady.reference)} | ${formatMs(steady.ours)} | ${steady.ratio.toFixed(2)} |`,
      `| RSS after ${thoughts} thoughts | ${rss.reference.toFixed(1)} MB | ${rss.ours.toFixed(1)} MB | ${rss.ratio.toFixed(2)} |`,
      `| client side: Ajv compile of every listed outputSchema (an SDK 2 Client's first callTool; not in the calls above) | ` +
        `${formatMs(outputCompile.reference)} | ${formatMs(outputCompile.ours)} | ${outputCompile.ratio.toFixed(2)} |`,
    );
    checks.push(
      {
        name: 'p50 at steady state vs reference',
        pass: steady.ratio <= P50_RATIO_TARGET,
        detail: `ratio ${steady.ratio.toFixed(2)} (target <= ${P50_RATIO_TARGET.toFixed(2)})`,
      },
      {
        name: 'start-up vs reference',
        pass: startupRatio <= STARTUP_RATIO_TARGET,
        detail: `ratio ${startupRatio.toFixed(2)} (target <= ${STARTUP_RATIO_TARGET.toFixed(2)})`,
      },
      {
        name: `RSS after ${thoughts} thoughts vs reference (context section)`,
        pass: rss.ratio <= RSS_RATIO_TARGET,
        detail: `ratio ${rss.ratio.toFixed(2)} (target <= ${RSS_RATIO_TARGET.toFixed(2)})`,
      },
    );
    return { lines, checks };
  },
};
