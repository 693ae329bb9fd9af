// 32 SDK clients at once against `node dist/cli.js --http`, each writing its own session thought by thought. Every
// session must then hold exactly its client's thoughts — none lost, none from another client, none out of order —
// both from the running server and after a restart from disk. Prints the figures.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/client';
import { callTool, connectHttp, requireBuiltCli, resultJson, startHttpCli, tempStore, type HttpCli } from './support';

const CLIENTS = 32;
const THOUGHTS = Number(process.env.HTTP_THOUGHTS ?? 60);

const textOf = (client: number, number: number) => `client ${client} thought ${number}: ${'·'.repeat((client * 7 + number) % 50)}`;

async function sessionThoughts(client: Client, sessionId: string): Promise<string[]> {
  const full = resultJson<{ thoughts: { thought: string; thoughtNumber: number }[] }>(
    await callTool(client, 'thinking_sessions', { action: 'get', sessionId, detail: 'full' }),
  );
  return full.thoughts.map((thought) => thought.thought);
}

describe(`${CLIENTS} concurrent HTTP clients`, () => {
  const store = tempStore('te-http32-');
  let server: HttpCli | undefined;
  after(async () => {
    await server?.stop();
    store.remove();
  });

  it(`keeps ${CLIENTS} × ${THOUGHTS} thoughts apart, in order, none lost`, { timeout: 150_000 }, async () => {
    requireBuiltCli();
    server = await startHttpCli(store.dir);
    const running = server;
    const started = Date.now();
    const clients = await Promise.all(Array.from({ length: CLIENTS }, (_, index) => connectHttp(running, `client-${index}`)));
    const sessionIds: string[] = [];
    let acknowledged = 0;
    await Promise.all(
      clients.map(async (client, index) => {
        for (let number = 1; number <= THOUGHTS; number++) {
          const reply = resultJson<{ sessionId?: string; thoughtNumber: number }>(
            await callTool(client, 'sequentialthinking', {
              thought: textOf(index, number),
              thoughtNumber: number,
              totalThoughts: THOUGHTS,
              nextThoughtNeeded: number < THOUGHTS,
              ...(sessionIds[index] !== undefined ? { sessionId: sessionIds[index] } : {}),
            }),
          );
          if (number === 1) sessionIds[index] = String(reply.sessionId);
          // A compact reply names the session only when it changes: any id here would be another session.
          else
            assert.equal(
              reply.sessionId ?? sessionIds[index],
              sessionIds[index],
              `client ${index} thought ${number} went to another session`,
            );
          acknowledged++;
        }
      }),
    );
    const elapsed = Date.now() - started;
    assert.equal(new Set(sessionIds).size, CLIENTS, 'one session per client');

    const check = async (reader: Client, when: string) => {
      let lost = 0;
      let crossed = 0;
      let reordered = 0;
      for (const [index, sessionId] of sessionIds.entries()) {
        const stored = await sessionThoughts(reader, sessionId);
        const expected = Array.from({ length: THOUGHTS }, (_, offset) => textOf(index, offset + 1));
        lost += expected.filter((text) => !stored.includes(text)).length;
        crossed += stored.filter((text) => !text.startsWith(`client ${index} `)).length;
        reordered += stored.filter((text, position) => expected.indexOf(text) !== position && text.startsWith(`client ${index} `)).length;
      }
      console.log(
        `# ${CLIENTS} HTTP clients × ${THOUGHTS} thoughts (${when}): acknowledged ${acknowledged}, lost ${lost}, crossed ${crossed}, reordered ${reordered}`,
      );
      assert.deepEqual({ lost, crossed, reordered }, { lost: 0, crossed: 0, reordered: 0 });
    };

    await check(clients[0], `live, written in ${elapsed} ms`);
    await Promise.all(clients.map((client) => client.close()));
    await running.stop();

    server = await startHttpCli(store.dir);
    const reader = await connectHttp(server, 'reader');
    try {
      await check(reader, 'after a restart, from disk');
    } finally {
      await reader.close();
    }
    assert.equal(acknowledged, CLIENTS * THOUGHTS);
  });
});
