// What a deliberation says to the model (src/deliberation/prompts.ts), without a model or a runner: a role's
// messages, a task cycle's instructions and budget, the convergence call, the STATUS line read back, and tool calls
// and results as the next cycle reads them. The runner's use of them against a scripted model is in
// test/mcp/deliberate.test.ts and deliberateTools.test.ts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  asksToContinue,
  convergencePrompt,
  describeToolCall,
  roleMessages,
  stripStatus,
  TASK_INSTRUCTIONS,
  taskCyclePrompt,
  toolResultForModel,
  toolsNotRun,
} from '../../src/deliberation/prompts';
import { findHat } from '../../src/deliberation/roles';

const factual = findHat('factual')!;
const critical = findHat('critical')!;

describe('deliberation prompts', () => {
  it('gives a role its system prompt and the problem alone when nothing came before', () => {
    const messages = roleMessages({ problem: 'Pick a cache.' }, factual, []);
    assert.deepEqual(messages, [
      { role: 'system', text: factual.systemPrompt },
      { role: 'user', text: 'Problem:\nPick a cache.' },
    ]);
  });

  it('adds the session so far, the perspectives before it in order, then the task text', () => {
    const [, user] = roleMessages(
      { problem: 'Pick a cache.', sessionContext: '#1 LRU or LFU?' },
      critical,
      [
        { role: factual, text: 'Reads are 90%.' },
        { role: findHat('emotional')!, text: 'LFU feels risky.' },
      ],
      ['Cycle instructions'],
    );
    assert.equal(
      user.text,
      'Problem:\nPick a cache.\n\nThe thinking session so far:\n#1 LRU or LFU?\n\n' +
        'Perspectives so far:\n\n[factual]\nReads are 90%.\n\n[emotional]\nLFU feels risky.\n\nCycle instructions',
    );
  });

  it('sends tool results as a message of their own, after the task', () => {
    const messages = roleMessages({ problem: 'p' }, factual, [], [], ['[grep()] returned:\nhit', 'Not run (x spent): ls.']);
    assert.equal(messages.length, 3);
    assert.deepEqual(messages[2], {
      role: 'user',
      text: 'Results of the tools you called:\n\n[grep()] returned:\nhit\n\nNot run (x spent): ls.',
    });
  });

  it('tells a task cycle how to end, the budget left and what its earlier cycles said', () => {
    const prompt = taskCyclePrompt({ cycles: 2, maxCycles: 5, tokensLeft: 300, msLeft: 4000 }, ['first', 'second']);
    assert.deepEqual(prompt, [
      TASK_INSTRUCTIONS,
      'Budget: cycle 3 of 5; 300 output tokens and 4000 ms left.',
      'Your cycle 1 said:\nfirst',
      'Your cycle 2 said:\nsecond',
    ]);
    const withTools = taskCyclePrompt({ cycles: 0, maxCycles: 3, tokensLeft: 10, msLeft: 5, toolCalls: { left: 1, max: 4 } }, []);
    assert.equal(withTools[1], 'Budget: cycle 1 of 3; 10 output tokens and 5 ms left; 1 of 4 tool calls left.');
    assert.match(TASK_INSTRUCTIONS, /STATUS: DONE/);
    assert.match(TASK_INSTRUCTIONS, /STATUS: CONTINUE/);
  });

  it('asks for the best final answer when a budget ran out, naming it, with everything gathered', () => {
    assert.deepEqual(convergencePrompt('maxCycles (3 of 3 cycles)', ['a']), [
      'Your budget ran out (maxCycles (3 of 3 cycles)). Give your best final answer now, from what you gathered so far. Do not ask for more cycles.',
      'Your cycle 1 said:\na',
    ]);
  });

  it('reads the STATUS line in any case and spacing, and strips it from the answer kept', () => {
    assert.equal(asksToContinue('more to do\n  status: continue  '), true);
    assert.equal(asksToContinue('answer\nSTATUS: DONE'), false);
    assert.equal(asksToContinue('no status line, STATUS: CONTINUE inside a sentence'), false);
    assert.equal(stripStatus('answer\nSTATUS: DONE\n'), 'answer');
    assert.equal(stripStatus('a\nSTATUS: CONTINUE\nb\nstatus: done'), 'a\n\nb');
    assert.equal(stripStatus('  STATUS: DONE  '), 'STATUS: DONE', 'nothing else left: the reply as it was');
  });

  it('names a tool call with its input cut short, and hands its result back cut to a bound', () => {
    assert.equal(describeToolCall({ name: 'list', input: {} }), 'list()');
    assert.equal(describeToolCall({ name: 'grep', input: { q: 'x' } }), 'grep({"q":"x"})');
    const long = describeToolCall({ name: 'grep', input: { q: 'y'.repeat(500) } });
    assert.equal(long.length, 'grep()'.length + 200);
    assert.ok(long.endsWith('…)'));
    assert.equal(toolResultForModel({ name: 'grep', input: {} }, true, 'hit'), '[grep()] returned:\nhit');
    assert.equal(toolResultForModel({ name: 'grep', input: {} }, false, 'boom'), '[grep()] failed:\nboom');
    const result = toolResultForModel({ name: 'cat', input: {} }, true, 'z'.repeat(10_000));
    assert.equal(result.length, '[cat()] returned:\n'.length + 4000);
    assert.equal(
      toolsNotRun('maxToolCalls (2 tool calls for the task)', ['a', 'b']),
      'Not run (maxToolCalls (2 tool calls for the task) spent): a, b.',
    );
  });
});
