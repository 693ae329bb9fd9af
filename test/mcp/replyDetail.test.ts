// Reply detail levels of `sequentialthinking`, through a real MCP Client: compact names the session on its first
// reply and after a resume or a switch, brings stage, next stages and guidance on every stage change and never
// repeats them while nothing changed, and passes on every warning and every piece of the person's feedback; standard
// and full carry guidance on every reply; the session's own level (thinking_sessions configure) is kept with it. Every
// reply validates against the advertised output schema, and the text is the structuredContent's JSON.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { Ajv2020 as Ajv, type ValidateFunction } from 'ajv/dist/2020.js';
import type { Client } from '@modelcontextprotocol/client';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { ThinkingEngine } from '../../src/engine/engine';
import type { ReplyDetail } from '../../src/engine/fieldRules';
import { FileSessionStore } from '../../src/storage/fileSessionStore';
import { connectInMemory, jsonOf, sessions, tempDir, textOf, think, type ConnectedClient } from './support/clients';

type Reply = Record<string, unknown>;
const REFERENCE_FIELDS = ['thoughtNumber', 'totalThoughts', 'nextThoughtNeeded', 'branches', 'thoughtHistoryLength'];

const open: ConnectedClient[] = [];
const dirs: string[] = [];
after(async () => {
  for (const connected of open) await connected.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function connect(engine: ThinkingEngine, replyDetail?: ReplyDetail, connectionId?: string): Promise<ConnectedClient> {
  const connected = await connectInMemory(engine, connectionId, replyDetail ? { replyDetail } : {});
  open.push(connected);
  return connected;
}

/** The advertised output schema of sequentialthinking, compiled with Ajv. */
async function outputValidator(client: Client): Promise<ValidateFunction> {
  const { tools } = await client.listTools();
  const schema = tools.find((tool) => tool.name === 'sequentialthinking')?.outputSchema;
  assert.ok(schema, 'sequentialthinking advertises an output schema');
  return new Ajv({ strict: false, allErrors: true }).compile(schema);
}

/** Sends one thought and checks what every reply must be: valid against the schema, text === structuredContent. */
async function send(client: Client, validate: ValidateFunction, args: Reply): Promise<Reply> {
  const result: CallToolResult = await think(client, {
    thought: `thought ${String(args.thoughtNumber)}`,
    nextThoughtNeeded: true,
    ...args,
  });
  const reply = jsonOf(result);
  assert.equal(textOf(result), JSON.stringify(result.structuredContent), 'the text is the structuredContent as JSON');
  assert.ok(validate(reply), `reply matches the output schema: ${JSON.stringify(validate.errors)}`);
  for (const field of REFERENCE_FIELDS) assert.ok(field in reply, `${field} is on every reply`);
  return reply;
}

/**
 * A 30-thought session in the named linear strategy with stages named along the way, three revisions and a branch.
 * `strategy` null: the same thoughts as a plain session (no strategy asked for, as the benchmark sends them).
 */
function* session(totalThoughts = 30, strategy: string | null = 'linear'): Generator<Reply> {
  const stages = ['problem_reception', 'initial_thought_planning', 'thought_generation', 'thought_evaluation', 'continuation_decision'];
  for (let number = 1; number <= totalThoughts; number++) {
    const args: Reply = { thoughtNumber: number, totalThoughts, nextThoughtNeeded: number < totalThoughts };
    if (number === 1 && strategy !== null) args.strategy = strategy;
    if (number <= stages.length) args.stage = stages[number - 1];
    if (number === 25) Object.assign(args, { branchFromThought: 24, branchId: 'alt' });
    else if (number % 10 === 0) Object.assign(args, { isRevision: true, revisesThought: number - 1 });
    yield args;
  }
}

describe('compact replies (the default)', () => {
  it('name the session first, bring stage, next stages and guidance on each stage change, and repeat nothing unchanged', async () => {
    const { client } = await connect(new ThinkingEngine());
    const validate = await outputValidator(client);
    let stage: string | undefined;
    let sessionId: string | undefined;
    const replies: Reply[] = [];
    for (const args of session()) {
      const reply = await send(client, validate, args);
      replies.push(reply);
      if (reply.thoughtNumber === 1) {
        assert.equal(typeof reply.sessionId, 'string', 'the first reply names the session');
        sessionId = reply.sessionId as string;
        assert.equal(reply.strategy, 'linear');
      } else assert.equal(reply.sessionId, undefined, `thought ${String(reply.thoughtNumber)}: no sessionId again`);
      // Only the reference's branches may be an empty array.
      for (const [key, value] of Object.entries(reply))
        if (key !== 'branches') assert.ok(!(Array.isArray(value) && value.length === 0), `no empty ${key}`);
      assert.equal(reply.progress, undefined);
      const current = engineStage(reply, stage);
      if (reply.stage !== undefined) {
        assert.notEqual(reply.stage, stage, `thought ${String(reply.thoughtNumber)}: stage only when it changes`);
        assert.equal(typeof reply.guidance, 'string', 'a stage change carries guidance');
        if (reply.nextThoughtNeeded) assert.ok(Array.isArray(reply.nextStages), 'a stage change carries the next stages');
      }
      stage = current;
    }
    assert.ok(sessionId);
    // A guidance line comes again only with a stage change (back to a stage seen before), never while nothing changed.
    let told: unknown;
    for (const reply of replies) {
      if (reply.guidance === undefined) continue;
      if (reply.stage === undefined) assert.notEqual(reply.guidance, told, `thought ${String(reply.thoughtNumber)} repeats its guidance`);
      told = reply.guidance;
    }
    assert.ok(replies.filter((reply) => reply.guidance === undefined).length > 15, 'most replies carry no guidance');
  });

  it('in a plain session (no strategy asked for) carry no stage talk and no warning for correct use', async () => {
    const { client } = await connect(new ThinkingEngine());
    const validate = await outputValidator(client);
    const replies: Reply[] = [];
    for (const args of session(30, null)) {
      delete args.stage;
      replies.push(await send(client, validate, args));
    }
    assert.equal(typeof replies[0].sessionId, 'string', 'the first reply names the session');
    for (const reply of replies) {
      for (const key of ['strategy', 'stage', 'nextStages', 'guidance', 'progress', 'warnings'])
        assert.equal(reply[key], undefined, `thought ${String(reply.thoughtNumber)}: no ${key}`);
      if (reply.thoughtNumber !== 1) assert.equal(reply.sessionId, undefined);
    }
    assert.equal(replies.at(-1)?.nextThoughtNeeded, false, 'the last reply ends the session, without a warning');
  });

  it('name the session again after a resume and after a switch to another session', async () => {
    const engine = new ThinkingEngine();
    const { client } = await connect(engine);
    const validate = await outputValidator(client);
    const first = await send(client, validate, { thoughtNumber: 1, totalThoughts: 3, strategy: 'linear' });
    const a = first.sessionId as string;
    assert.equal((await send(client, validate, { thoughtNumber: 2, totalThoughts: 3 })).sessionId, undefined);
    // Another session on the same connection, then back to the first by its id: each switch names the session.
    const other = await send(client, validate, { thoughtNumber: 1, totalThoughts: 2, sessionId: 'other-session' });
    assert.equal(other.sessionId, 'other-session');
    const back = await send(client, validate, { thoughtNumber: 3, totalThoughts: 4, sessionId: a });
    assert.equal(back.sessionId, a);
    assert.equal(typeof back.stage, 'string', 'a switch tells the stage again');
    assert.equal(typeof back.guidance, 'string');
    assert.equal((await send(client, validate, { thoughtNumber: 4, totalThoughts: 5 })).sessionId, undefined);
    // resume: the same session, but the agent may have lost the conversation that knew it.
    const resumed = await sessions(client, { action: 'resume', sessionId: a });
    assert.ok(!resumed.isError, textOf(resumed));
    const afterResume = await send(client, validate, { thoughtNumber: 5, totalThoughts: 6 });
    assert.equal(afterResume.sessionId, a);
    assert.equal(typeof afterResume.guidance, 'string');
  });

  it('pass on every warning and every piece of feedback, with the guidance that puts the feedback first', async () => {
    const engine = new ThinkingEngine();
    const { client } = await connect(engine);
    const validate = await outputValidator(client);
    const first = await send(client, validate, { thoughtNumber: 1, totalThoughts: 4 });
    const id = first.sessionId as string;
    await send(client, validate, { thoughtNumber: 2, totalThoughts: 4 });
    // revisesThought without isRevision: recorded as a revision, with a warning.
    const warned = await send(client, validate, { thoughtNumber: 3, totalThoughts: 4, revisesThought: 2 });
    assert.ok(Array.isArray(warned.warnings) && warned.warnings.length > 0, JSON.stringify(warned));
    // The same stage as the thought before: no guidance of its own, until the person's note arrives.
    const quiet = await send(client, validate, { thoughtNumber: 4, totalThoughts: 6 });
    const noted = engine.addFeedback(id, { kind: 'note', text: 'Mind the cache.' });
    assert.ok(noted.ok);
    const delivered = await send(client, validate, { thoughtNumber: 5, totalThoughts: 6 });
    assert.deepEqual(
      (delivered.userFeedback as Reply[]).map((item) => item.text),
      ['Mind the cache.'],
    );
    assert.match(delivered.guidance as string, /Mind the cache/);
    assert.equal(quiet.guidance === undefined || quiet.stage !== undefined, true);
    // Delivered once: the next reply goes quiet again (the plain guidance was told before the note).
    const next = await send(client, validate, { thoughtNumber: 6, totalThoughts: 6 });
    assert.equal(next.userFeedback, undefined);
  });
});

describe('standard and full replies', () => {
  it('full carries every field, guidance included, on every reply', async () => {
    const { client } = await connect(new ThinkingEngine(), 'full');
    const validate = await outputValidator(client);
    for (const args of session(12)) {
      const reply = await send(client, validate, args);
      for (const field of ['sessionId', 'strategy', 'stage', 'nextStages', 'guidance', 'warnings', 'progress'])
        assert.ok(field in reply, `thought ${String(reply.thoughtNumber)}: ${field}`);
      assert.ok((reply.guidance as string).length > 0);
    }
  });

  it('standard carries session, stage and guidance on every reply, and no empty warnings', async () => {
    const { client } = await connect(new ThinkingEngine(), 'standard');
    const validate = await outputValidator(client);
    for (const args of session(12)) {
      const reply = await send(client, validate, args);
      for (const field of ['sessionId', 'stage', 'guidance']) assert.ok(field in reply, `thought ${String(reply.thoughtNumber)}: ${field}`);
      assert.ok(reply.warnings === undefined || (reply.warnings as unknown[]).length > 0);
      if (reply.thoughtNumber === 1) assert.deepEqual(Object.keys(reply.progress as Reply), ['thoughts', 'typicalLength', 'stagesToFinal']);
    }
  });
});

describe("a session's own reply detail (thinking_sessions configure)", () => {
  it('is kept with the session, survives a restart, and a bad value is refused with nothing changed', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const store = new FileSessionStore(dir);
    const engine = new ThinkingEngine({ store });
    const { client } = await connect(engine);
    const validate = await outputValidator(client);
    const id = (await send(client, validate, { thoughtNumber: 1, totalThoughts: 5 })).sessionId as string;

    const refused = await sessions(client, { action: 'configure', sessionId: id, replyDetail: 'verbose' });
    assert.equal(refused.isError, true);
    assert.match(textOf(refused), /Invalid replyDetail: got "verbose"; expected compact, standard, full or "default"/);
    assert.equal(engine.getSession(id)?.meta.replyDetail, undefined);

    const configured = await sessions(client, { action: 'configure', sessionId: id, replyDetail: 'full' });
    assert.deepEqual(jsonOf(configured), { sessionId: id, replyDetail: 'full' });
    const full = await send(client, validate, { thoughtNumber: 2, totalThoughts: 5 });
    assert.equal(full.sessionId, id);
    assert.equal(typeof full.guidance, 'string');
    assert.ok('progress' in full);
    store.close();

    // A new process on the same store: the session still answers in full, other sessions in the server's compact.
    const reopened = new ThinkingEngine({ store: new FileSessionStore(dir) });
    const again = await connect(reopened);
    const validateAgain = await outputValidator(again.client);
    const continued = await send(again.client, validateAgain, { thoughtNumber: 3, totalThoughts: 5, sessionId: id });
    const stillFull = await send(again.client, validateAgain, { thoughtNumber: 4, totalThoughts: 5 });
    assert.ok('progress' in continued && 'progress' in stillFull && stillFull.sessionId === id);
    const compact = await send(again.client, validateAgain, { thoughtNumber: 1, totalThoughts: 3, sessionId: 'compact-one' });
    const compactNext = await send(again.client, validateAgain, { thoughtNumber: 2, totalThoughts: 3 });
    assert.equal(compact.progress, undefined);
    assert.equal(compactNext.sessionId, undefined);

    // "default" follows the server again.
    assert.deepEqual(jsonOf(await sessions(again.client, { action: 'configure', sessionId: id, replyDetail: 'default' })), {
      sessionId: id,
    });
    assert.equal(reopened.getSession(id)?.meta.replyDetail, undefined);
  });
});

/** The stage the session is in after `reply` (compact leaves it out while unchanged). */
function engineStage(reply: Reply, before: string | undefined): string | undefined {
  return typeof reply.stage === 'string' ? reply.stage : before;
}
