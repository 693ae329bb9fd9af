// `npm run test:plugin`: the agent plugin (packages/agent-plugin) in a real Claude Code, pinned and installed on demand
// into the cache (scripts/claudeCode.mjs). Checks that `claude plugin validate --strict` passes on the plugin and on the
// marketplace at the repository root, prints `claude plugin details` (the skill's projected token cost), then runs
// `claude -p` against a scripted model on 127.0.0.1 (scripts/scriptedAnthropic.mjs) with a copy of the plugin whose
// mcp.json starts the local build (dist/cli.js) on a temporary store: the skill must be offered to the model and load
// when invoked, the plugin's server must start and answer, and the store must end up with a session holding a revision
// and a branch. Options: --no-build, --timeout <seconds> (default 300). KEEP_TEMP=1 keeps the temporary folder.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { CLAUDE_CODE_VERSION, ensureClaudeCode } from './claudeCode.mjs';
import { startScriptedModel } from './scriptedAnthropic.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const pluginSource = join(repo, 'packages', 'agent-plugin');
const { values: options } = parseArgs({
  options: { 'no-build': { type: 'boolean', default: false }, timeout: { type: 'string', default: '300' } },
});
const timeoutMs = Number(options.timeout) * 1000;
const log = (line) => process.stderr.write(`[test:plugin] ${line}\n`);

const PLUGIN_NAME = JSON.parse(readFileSync(join(pluginSource, 'plugin.json'), 'utf8')).name;
const SKILL_NAME = readdirSync(join(pluginSource, 'skills'))[0];
const SKILL_TEXT = readFileSync(join(pluginSource, 'skills', SKILL_NAME, 'SKILL.md'), 'utf8');
/** The skill's first heading: seen in a request only once the skill's body was loaded, not from its listing. */
const SKILL_HEADING = /^# .+$/m.exec(SKILL_TEXT)?.[0] ?? '';
const TOOL_NAME_PATTERN = /mcp__[A-Za-z0-9_-]*__sequentialthinking/;
const BRANCH_ID = 'queue';

/** The thoughts the scripted model sends, in order: a revision of thought 2, then a branch from thought 3. */
const THOUGHTS = [
  { thought: 'Plan: find why the cache serves stale entries after a write.', thoughtNumber: 1, totalThoughts: 5, nextThoughtNeeded: true },
  {
    thought: 'The write path updates the database, then the cache, with one writer.',
    thoughtNumber: 2,
    totalThoughts: 5,
    nextThoughtNeeded: true,
  },
  {
    thought: 'Thought 2 was wrong: there are two writers, so the cache update races the database write.',
    thoughtNumber: 3,
    totalThoughts: 5,
    nextThoughtNeeded: true,
    isRevision: true,
    revisesThought: 2,
  },
  {
    thought: 'Alternative: invalidate through a queue instead of updating in place.',
    thoughtNumber: 4,
    totalThoughts: 5,
    nextThoughtNeeded: true,
    branchFromThought: 3,
    branchId: BRANCH_ID,
  },
  {
    thought: 'The queue orders the invalidations after the writes: answer with it.',
    thoughtNumber: 5,
    totalThoughts: 5,
    nextThoughtNeeded: false,
    branchFromThought: 3,
    branchId: BRANCH_ID,
  },
];

/** What the scripted model saw and did, checked at the end. */
const seen = { skillOffered: false, skillLoaded: false, toolName: undefined, toolResults: [], steps: 0 };

const textOf = (content) =>
  typeof content === 'string'
    ? content
    : (content ?? []).map((block) => (block.type === 'text' ? block.text : JSON.stringify(block))).join('');

/** Our earlier tool uses in the conversation, and the results Claude Code sent back for them. */
function conversation(body) {
  const uses = [];
  const results = new Map();
  for (const message of body.messages ?? []) {
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content) {
      if (block.type === 'tool_use' && String(block.id).startsWith('toolu_te_')) uses.push(block);
      if (block.type === 'tool_result') results.set(block.tool_use_id, block);
    }
  }
  return { uses, results };
}

const toolUse = (step, name, input) => [{ type: 'tool_use', id: `toolu_te_${step}`, name, input }];

/** The script: invoke the skill, load the MCP tool through ToolSearch, think five thoughts, answer. */
function respond(body) {
  const tools = (body.tools ?? []).map((tool) => tool.name);
  // Side requests (titles, summaries) carry no Skill tool: a plain answer.
  if (!tools.includes('Skill')) return [{ type: 'text', text: 'ok' }];
  const text = JSON.stringify(body);
  const { uses, results } = conversation(body);
  const step = uses.length;
  seen.steps = Math.max(seen.steps, step);
  for (const use of uses) {
    const result = results.get(use.id);
    if (use.name === seen.toolName && result && !seen.toolResults.some((item) => item.id === use.id)) {
      seen.toolResults.push({ id: use.id, isError: result.is_error === true, text: textOf(result.content) });
    }
  }
  if (step === 0) {
    seen.skillOffered = text.includes(`${PLUGIN_NAME}:${SKILL_NAME}`);
    return toolUse(step, 'Skill', { skill: `${PLUGIN_NAME}:${SKILL_NAME}` });
  }
  if (step === 1) {
    seen.skillLoaded = SKILL_HEADING !== '' && text.includes(SKILL_HEADING);
    const known = TOOL_NAME_PATTERN.exec(text)?.[0];
    return toolUse(step, 'ToolSearch', { query: known ? `select:${known}` : 'sequentialthinking' });
  }
  if (step === 2) {
    seen.toolName = TOOL_NAME_PATTERN.exec(textOf(results.get(uses[1].id)?.content))?.[0] ?? TOOL_NAME_PATTERN.exec(text)?.[0];
    if (!seen.toolName) throw new Error('the sequentialthinking tool was not found by ToolSearch: did the plugin server start?');
  }
  const thought = THOUGHTS[step - 2];
  if (thought) return toolUse(step, seen.toolName, thought);
  return [{ type: 'text', text: 'Invalidate through a queue: it orders the invalidations after both writers.' }];
}

/** Runs a command to its end within the time-out; resolves to its exit code and output. */
function run(command, args, { env, cwd, input } = {}) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd: cwd ?? repo, env: env ?? process.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${command} ${args.join(' ')} did not finish within ${timeoutMs / 1000} s\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, stdout, stderr });
    });
    child.stdin.end(input ?? '');
  });
}

/** The environment Claude Code runs in: a throw-away home, the scripted model, no traffic elsewhere. */
function claudeEnv(home, modelUrl) {
  const env = { PATH: process.env.PATH, HOME: home, TMPDIR: tmpdir(), LANG: 'C.UTF-8' };
  return {
    ...env,
    ...(modelUrl ? { ANTHROPIC_BASE_URL: modelUrl, ANTHROPIC_API_KEY: 'sk-scripted-model' } : {}),
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
  };
}

function check(failures, ok, message) {
  log(`${ok ? 'ok  ' : 'FAIL'} ${message}`);
  if (!ok) failures.push(message);
}

/** The session the run left in the store, read back through the CLI's own export. */
function storedSession(store) {
  const journals = readdirSync(store).filter((name) => name.endsWith('.jsonl'));
  if (journals.length !== 1) throw new Error(`the store holds ${journals.length} sessions, expected 1: ${journals.join(', ')}`);
  const id = journals[0].slice(0, -'.jsonl'.length);
  const exported = spawnSync(process.execPath, [join(repo, 'dist', 'cli.js'), 'export', id, '--format', 'json', '--storage-path', store], {
    encoding: 'utf8',
  });
  if (exported.status !== 0) throw new Error(`export failed: ${exported.stderr}`);
  return { id, session: JSON.parse(exported.stdout) };
}

async function main() {
  const started = Date.now();
  if (!options['no-build']) {
    log('npm run build');
    const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: repo, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('npm run build failed');
  }
  const claude = ensureClaudeCode({ log });
  const temp = mkdtempSync(join(tmpdir(), 'te-plugin-'));
  const failures = [];
  try {
    const home = join(temp, 'home');
    const workspace = join(temp, 'workspace');
    const store = join(temp, 'store');
    for (const dir of [home, workspace, store]) mkdirSync(dir, { recursive: true });
    const version = await run(claude, ['--version'], { env: claudeEnv(home) });
    log(`Claude Code ${version.stdout.trim()} (pinned ${CLAUDE_CODE_VERSION})`);

    for (const [label, target] of [
      ['the plugin', pluginSource],
      ['the marketplace', repo],
    ]) {
      const result = await run(claude, ['plugin', 'validate', '--strict', target], { env: claudeEnv(home) });
      check(failures, result.code === 0, `claude plugin validate --strict passes on ${label}`);
      if (result.code !== 0) process.stderr.write(`${result.stdout}${result.stderr}\n`);
    }
    const details = await run(claude, ['--plugin-dir', pluginSource, 'plugin', 'details', PLUGIN_NAME], { env: claudeEnv(home) });
    process.stderr.write(`${details.stdout}\n`);

    // The plugin as published, but starting the local build on the temporary store instead of npx from the registry.
    const plugin = join(temp, 'plugin');
    cpSync(pluginSource, plugin, { recursive: true });
    const mcp = JSON.parse(readFileSync(join(plugin, 'mcp.json'), 'utf8'));
    for (const server of Object.values(mcp.mcpServers)) {
      Object.assign(server, { command: process.execPath, args: [join(repo, 'dist', 'cli.js'), '--storage-path', store] });
    }
    writeFileSync(join(plugin, 'mcp.json'), JSON.stringify(mcp, null, 2));

    const model = await startScriptedModel(respond);
    try {
      const serverRule = `mcp__plugin_${PLUGIN_NAME}_${Object.keys(mcp.mcpServers)[0]}`;
      const result = await run(
        claude,
        [
          '-p',
          'Why does our cache serve stale entries after a write? Think it through.',
          '--plugin-dir',
          plugin,
          '--output-format',
          'json',
          '--allowedTools',
          `Skill,ToolSearch,${serverRule}`,
        ],
        { env: claudeEnv(home, model.url), cwd: workspace },
      );
      for (const error of model.errors) check(failures, false, `the scripted model: ${error.message}`);
      check(failures, result.code === 0, `claude -p exits 0 (exit ${result.code})`);
      if (result.code !== 0) process.stderr.write(`${result.stdout}\n${result.stderr}\n`);
    } finally {
      await model.close();
    }

    check(failures, seen.skillOffered, `the skill ${PLUGIN_NAME}:${SKILL_NAME} is offered to the model`);
    check(failures, seen.skillLoaded, 'invoking it loads the skill into the conversation');
    check(failures, seen.toolName !== undefined, `the plugin's server starts and its tool is offered (${seen.toolName})`);
    const answered = seen.toolResults.filter((item) => !item.isError);
    check(failures, answered.length === THOUGHTS.length, `the server answered ${answered.length} of ${THOUGHTS.length} thoughts`);
    for (const item of seen.toolResults.filter((result) => result.isError)) log(`  refused: ${item.text}`);

    const { id, session } = storedSession(store);
    const thoughts = session.thoughts ?? [];
    check(failures, thoughts.length === THOUGHTS.length, `session ${id} holds ${thoughts.length} thoughts`);
    check(
      failures,
      thoughts.some((thought) => thought.isRevision === true && thought.revisesThought === 2),
      'the session holds the revision of thought 2',
    );
    check(
      failures,
      thoughts.filter((thought) => thought.branchId === BRANCH_ID && thought.branchFromThought === 3).length === 2,
      `the session holds the branch "${BRANCH_ID}" from thought 3`,
    );
  } finally {
    if (process.env.KEEP_TEMP === '1') log(`kept ${temp}`);
    else rmSync(temp, { recursive: true, force: true });
  }
  log(`${failures.length === 0 ? 'passed' : `${failures.length} failed`} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return failures.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    log(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(1);
  },
);
