// The VS Code deliberation pieces that run without VS Code: the @thinking command parser, the deliberation settings,
// the live-deliberation tracker the explorer draws, the model chooser and error messages, and plan tool selection.
import './support/vscodeLoader';
import * as assert from 'node:assert/strict';
import { describe, test, beforeEach } from 'node:test';
import { parseChatCommand } from '../../src/extension/chatCommands';
import { parseModelSetting, readDeliberationSettings } from '../../src/extension/deliberationSettings';
import { LiveDeliberations } from '../../src/extension/liveDeliberations';
import { chooseModel, describeModelError, ModelUnavailableError } from '../../src/extension/lmGateway';
import { isOwnTool } from '../../src/extension/lmToolGateway';
import { selectTools } from '../../src/deliberation/toolSelection';
import type { ResolvedPlan } from '../../src/deliberation/plans';
import type { ModelGateway } from '../../src/engine/modelGateway';
import type { ToolGateway } from '../../src/engine/toolGateway';
import { isHostMessage, isWebviewMessage } from '../../src/shared/protocol';
import type { CallOutcome } from '../../src/deliberation/runner';
import { LanguageModelError, resetStub, stub, useL10nBundle } from './support/vscodeStub';

const defaults = { defaultPlan: 'auto' as const, budgets: {} };

describe('@thinking commands', () => {
  test('plain question uses the default plan; /hats routes unless --full', () => {
    assert.deepEqual(parseChatCommand(undefined, ' Should we cache? ', defaults), {
      kind: 'deliberate',
      input: { problem: 'Should we cache?', plan: 'auto' },
      label: 'auto',
    });
    assert.deepEqual(parseChatCommand('hats', 'Split the monolith?', defaults), {
      kind: 'deliberate',
      input: { problem: 'Split the monolith?', plan: 'auto' },
      label: 'hats (auto routing)',
    });
    assert.equal(parseChatCommand('hats', '  ', defaults).kind, 'usage');
    const full = parseChatCommand('hats', '--full Split the monolith?', { defaultPlan: 'auto', budgets: { maxTokens: 300 } });
    assert.deepEqual(full, {
      kind: 'deliberate',
      input: { problem: 'Split the monolith?', plan: 'hats', budgets: { maxTokens: 300 } },
      label: 'six hats',
    });
  });

  test('/plan kinds, roles and tools (tools only for task, as a plan object)', () => {
    assert.deepEqual(parseChatCommand('plan', 'sequential --roles critical,creative Go?', defaults), {
      kind: 'deliberate',
      input: { problem: 'Go?', plan: 'sequential', roles: ['critical', 'creative'] },
      label: 'sequential',
    });
    const task = parseChatCommand('plan', 'task --tools lookup_weather,other What to wear?', defaults);
    assert.deepEqual(task.kind === 'deliberate' && task.input.plan, {
      strategy: 'task',
      role: 'factual',
      tools: ['lookup_weather', 'other'],
    });
    assert.equal(parseChatCommand('plan', 'parallel --tools x Q', defaults).kind, 'usage');
    const unknown = parseChatCommand('plan', 'zigzag Q', defaults);
    assert.ok(unknown.kind === 'usage' && unknown.message.includes('"zigzag"'));
    assert.equal(parseChatCommand('plan', 'direct', defaults).kind, 'usage');
  });

  test('/strategy checks the name; /resume takes an optional id; unknown commands get the usage', () => {
    assert.deepEqual(parseChatCommand('strategy', 'tree_of_thoughts Plan the launch', defaults), {
      kind: 'strategy',
      strategy: 'tree_of_thoughts',
      problem: 'Plan the launch',
    });
    const bad = parseChatCommand('strategy', 'nope Plan', defaults);
    assert.ok(bad.kind === 'usage' && bad.message.includes('tree_of_thoughts'));
    assert.deepEqual(parseChatCommand('resume', '', defaults), { kind: 'resume' });
    assert.deepEqual(parseChatCommand('resume', 'abc-1 extra', defaults), { kind: 'resume', sessionId: 'abc-1' });
    assert.equal(parseChatCommand('frobnicate', 'x', defaults).kind, 'usage');
  });

  test("usage answers and labels are read from the display language's bundle", () => {
    useL10nBundle({
      'Unknown command /{0}.': 'Commande inconnue /{0}.',
      '`/resume [session]` shows where a session stands and how to go on.': '`/resume [session]` montre où en est une session.',
      'Give the problem after `/plan {0}`.': 'Donnez le problème après `/plan {0}`.',
      'hats (auto routing)': 'chapeaux (choix automatique)',
    });
    try {
      const unknown = parseChatCommand('frobnicate', 'x', defaults);
      assert.ok(unknown.kind === 'usage');
      assert.match(unknown.message, /^Commande inconnue \/frobnicate\.\n\n/);
      assert.match(unknown.message, /`\/resume \[session\]` montre où en est une session\.$/);
      assert.deepEqual(parseChatCommand('plan', 'direct', defaults), {
        kind: 'usage',
        message: 'Donnez le problème après `/plan direct`.',
      });
      const hats = parseChatCommand('hats', 'Q', defaults);
      assert.ok(hats.kind === 'deliberate' && hats.label === 'chapeaux (choix automatique)');
    } finally {
      resetStub();
    }
  });
});

describe('deliberation settings', () => {
  test('model setting forms', () => {
    assert.deepEqual(parseModelSetting(''), { kind: 'default' });
    assert.deepEqual(parseModelSetting(' ASK '), { kind: 'ask' });
    assert.deepEqual(parseModelSetting('copilot'), {
      kind: 'selector',
      text: 'copilot',
      vendor: 'copilot',
      family: undefined,
      id: undefined,
    });
    assert.deepEqual(parseModelSetting('copilot/*/gpt-4o'), {
      kind: 'selector',
      text: 'copilot/*/gpt-4o',
      vendor: 'copilot',
      family: undefined,
      id: 'gpt-4o',
    });
  });

  test('bad values fall back and are reported', () => {
    const values: Record<string, unknown> = {
      'deliberation.defaultPlan': 'nope',
      'deliberation.maxTokens': 0,
      'deliberation.maxToolCalls': 2,
      'deliberation.model': 5,
    };
    const reading = readDeliberationSettings({ get: <T>(key: string) => values[key] as T });
    assert.equal(reading.settings.defaultPlan, 'auto');
    assert.deepEqual(reading.settings.budgets, { maxToolCalls: 2 });
    assert.deepEqual(reading.settings.model, { kind: 'default' });
    assert.equal(reading.problems.length, 3);
  });
});

describe('live deliberations', () => {
  const role = (name: string) => ({ name, title: `${name} hat`, stage: name, systemPrompt: '' }) as unknown as CallOutcome['role'];
  const outcome = (name: string, status: CallOutcome['status']): CallOutcome =>
    ({
      role: role(name),
      phase: 'call',
      stepIndex: 0,
      status,
      text: 't',
      durationMs: 5,
      final: false,
      usage: { inputTokens: 10, outputTokens: 4, estimated: false },
    }) as CallOutcome;

  test('roles go running → done/failed; finishing marks the rest cancelled; stop aborts', () => {
    const runs = new LiveDeliberations();
    const seen: string[] = [];
    runs.onDidChange((state) => seen.push(state.roles.map((entry) => `${entry.role}:${entry.state}`).join(',')));
    const controller = new AbortController();
    const run = runs.begin({ model: 'm', maxTotalTokens: 100, controller });
    run.started({ sessionId: 's1', role: 'factual', title: 'Factual' });
    run.started({ sessionId: 's1', role: 'critical', title: 'Critical' });
    run.recorded(outcome('factual', 'ok'), 2);
    assert.deepEqual(seen.at(-1), 'factual:done,critical:running');
    assert.equal(runs.stop('s1'), true);
    assert.equal(controller.signal.aborted, true);
    run.recorded(outcome('creative', 'cancelled'), 3);
    run.finished('cancelled');
    const state = runs.state('s1')!;
    assert.equal(state.status, 'cancelled');
    assert.deepEqual(
      state.roles.map((entry) => entry.state),
      ['done', 'cancelled', 'cancelled'],
    );
    assert.equal(state.outputTokens, 8);
    assert.equal(runs.stop('s1'), false, 'a finished run cannot be stopped');
  });

  test('protocol guards accept the state and the stop message, refuse malformed ones', () => {
    const state = {
      sessionId: 's',
      model: 'm',
      status: 'running',
      roles: [{ role: 'r', title: 'R', state: 'running' }],
      inputTokens: 0,
      outputTokens: 0,
      calls: 1,
    };
    assert.equal(isHostMessage({ type: 'deliberationState', state }), true);
    assert.equal(
      isHostMessage({ type: 'deliberationState', state: { ...state, roles: [{ role: 'r', title: 'R', state: 'exploded' }] } }),
      false,
    );
    assert.equal(isWebviewMessage({ type: 'stopDeliberation', sessionId: 's' }), true);
    assert.equal(isWebviewMessage({ type: 'stopDeliberation' }), false);
  });
});

describe('model choice and errors', () => {
  beforeEach(() => resetStub());
  const picker = (answer?: string) => ({
    pick: async (models: readonly { id: string }[]) => models.find((model) => model.id === answer) as never,
  });

  test('a selector that matches nothing says so and lists what exists; none at all says how to get one', async () => {
    stub.chatModels.push({ vendor: 'acme', family: 'fam', id: 'one', name: 'One' });
    await assert.rejects(chooseModel(parseModelSetting('copilot/gpt-4o'), undefined, picker()), (error: Error) => {
      assert.ok(error instanceof ModelUnavailableError);
      assert.match(error.message, /copilot\/gpt-4o/);
      assert.match(error.message, /Available: acme\/fam\/one/);
      return true;
    });
    const chosen = await chooseModel(parseModelSetting('acme'), undefined, picker());
    assert.equal(chosen.id, 'one');
    stub.chatModels.length = 0;
    await assert.rejects(
      chooseModel({ kind: 'default' }, undefined, picker()),
      /No language model is available in VS Code\. Install and sign in to GitHub Copilot/,
    );
  });

  test('"ask" picks once and remembers', async () => {
    stub.chatModels.push({ vendor: 'a', family: 'f', id: 'one', name: 'One' }, { vendor: 'a', family: 'f', id: 'two', name: 'Two' });
    const remembering = picker('two') as ReturnType<typeof picker> & { remembered?: { vendor: string; id: string } };
    assert.equal((await chooseModel({ kind: 'ask' }, undefined, remembering)).id, 'two');
    assert.deepEqual(remembering.remembered, { vendor: 'a', id: 'two' });
    remembering.pick = async () => assert.fail('asked twice');
    assert.equal((await chooseModel({ kind: 'ask' }, undefined, remembering)).id, 'two');
    await assert.rejects(chooseModel({ kind: 'ask' }, undefined, picker(undefined)), /No model was picked/);
  });

  test('every LanguageModelError becomes a sentence that says what to do', () => {
    assert.match(
      describeModelError(LanguageModelError.NoPermissions('denied'), 'GPT'),
      /did not allow Thought Explorer to use GPT.*choose Allow/,
    );
    assert.match(describeModelError(LanguageModelError.Blocked(''), 'GPT'), /blocked the request; this is usually a rate or quota limit/);
    assert.match(describeModelError(LanguageModelError.NotFound(''), 'GPT'), /no longer available.*"ask"/);
    assert.match(describeModelError(new Error('429 Too Many Requests'), 'GPT'), /quota or rate limit/);
    assert.equal(describeModelError(new Error('boom'), 'GPT'), 'GPT failed: boom');
  });

  test('plan tools: exact names, unknown reported; our own tools never offered', () => {
    const available = [
      { name: 'lookup', description: '' },
      { name: 'Lookup2', description: '' },
    ];
    // The selection every deliberation uses (src/deliberation/toolSelection.ts), on the names VS Code's gateway lists.
    const plan = { steps: [{ tools: ['lookup', 'LOOKUP2', 'lookup'] }] } as unknown as ResolvedPlan;
    const model = { description: 'model', toolCalling: true } as unknown as ModelGateway;
    const gateway = { description: 'tools', tools: () => available } as unknown as ToolGateway;
    const selection = selectTools(plan, model, gateway);
    assert.deepEqual(
      { tools: [...selection.offered.values()], unknown: selection.unknown },
      { tools: [available[0]], unknown: ['LOOKUP2'] },
    );
    assert.equal(isOwnTool({ name: 'mcp_thought_explo_deliberate', tags: [] }), true);
    assert.equal(isOwnTool({ name: 'mcp_thought-explorer_sequentialthinking', tags: [] }), true);
    assert.equal(isOwnTool({ name: 'mcp_github_search', tags: [] }), false);
  });
});
