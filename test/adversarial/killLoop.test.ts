// kill -9 against the stdio CLI, again and again: thoughts are pipelined as fast as the server takes them, the process
// is killed at a random moment, and the next process must hold every thought whose call was acknowledged — in order,
// with its text — and take further thoughts on the same session. Prints acknowledged and lost (which must be 0).
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { RawStdioServer, requireBuiltCli, sleep, tempStore, toolText } from './support';

const CYCLES = Number(process.env.KILL_CYCLES ?? 30);
const THOUGHTS_PER_CYCLE = 400;

interface Sent {
  sessionId: string;
  /** Text of each thought by thoughtNumber (1-based; index 0 unused). */
  texts: string[];
  acknowledged: number[];
}

describe('kill -9 loop on the stdio CLI', () => {
  const store = tempStore('te-kill9-');
  after(() => store.remove());

  it(`loses no acknowledged thought over ${CYCLES} kill -9 cycles`, { timeout: 170_000 }, async () => {
    requireBuiltCli();
    const sessions: Sent[] = [];
    let acknowledgedTotal = 0;
    let lost = 0;
    let refused = 0;

    /** Checks every session written so far against what the server now reads from disk. */
    const verify = async (server: RawStdioServer, cycle: number): Promise<void> => {
      for (const sent of sessions) {
        const reply = await server.request(
          `get-${cycle}-${sent.sessionId}`,
          'tools/call',
          { name: 'thinking_sessions', arguments: { action: 'get', sessionId: sent.sessionId, detail: 'full' } },
          15_000,
        );
        const { ok, text } = toolText(reply);
        assert.ok(ok, `cycle ${cycle}: session ${sent.sessionId} unreadable after kill -9: ${text}`);
        const stored = (JSON.parse(text) as { thoughts: { thought: string; thoughtNumber: number }[] }).thoughts;
        const byNumber = new Map(stored.map((thought) => [thought.thoughtNumber, thought.thought]));
        for (const number of sent.acknowledged) {
          if (byNumber.get(number) !== sent.texts[number]) lost++;
        }
        // What is on disk is a prefix of what was sent, in order: nothing reordered, nothing invented.
        stored.forEach((thought, index) =>
          assert.equal(thought.thought, sent.texts[index + 1], `cycle ${cycle}: thought ${index + 1} of ${sent.sessionId}`),
        );
      }
    };

    for (let cycle = 0; cycle < CYCLES; cycle++) {
      const server = RawStdioServer.start(store.dir);
      try {
        await server.initialize();
        await verify(server, cycle);
        assert.equal(lost, 0, `lost acknowledged thoughts before cycle ${cycle}`);

        // Odd cycles continue the previous cycle's session (append after a crash); even ones start a new session.
        const previous = sessions[sessions.length - 1];
        const continuing = cycle % 2 === 1 && previous !== undefined;
        const sent: Sent = continuing ? previous : { sessionId: '', texts: [''], acknowledged: [] };
        const base = continuing ? await storedCount(server, previous.sessionId, cycle) : 0;
        // A continued session drops what was sent but never reached the disk: those numbers are free again.
        sent.texts.length = base + 1;
        const firstNumber = base + 1;
        const firstText = `cycle ${cycle} thought ${firstNumber}`;
        sent.texts[firstNumber] = firstText;
        const first = await server.request(`c${cycle}-t${firstNumber}`, 'tools/call', {
          name: 'sequentialthinking',
          arguments: {
            thought: firstText,
            thoughtNumber: firstNumber,
            totalThoughts: firstNumber + THOUGHTS_PER_CYCLE,
            nextThoughtNeeded: true,
            ...(continuing ? { sessionId: sent.sessionId } : {}),
          },
        });
        const firstResult = toolText(first);
        assert.ok(firstResult.ok, firstResult.text);
        if (!continuing) {
          sent.sessionId = (JSON.parse(firstResult.text) as { sessionId: string }).sessionId;
          sessions.push(sent);
        }
        sent.acknowledged.push(firstNumber);
        acknowledgedTotal++;

        // Pipeline the rest without waiting, then kill at a random moment while they are being written.
        const pending = new Map<string, number>();
        const onReply = (number: number, ok: boolean) => {
          if (ok) {
            sent.acknowledged.push(number);
            acknowledgedTotal++;
          } else refused++;
        };
        const from = server.replies.length;
        for (let number = firstNumber + 1; number <= firstNumber + THOUGHTS_PER_CYCLE; number++) {
          const text = `cycle ${cycle} thought ${number} ${'x'.repeat(number % 97)}`;
          sent.texts[number] = text;
          const id = `c${cycle}-t${number}`;
          pending.set(id, number);
          server.send({
            jsonrpc: '2.0',
            id,
            method: 'tools/call',
            params: {
              name: 'sequentialthinking',
              arguments: {
                sessionId: sent.sessionId,
                thought: text,
                thoughtNumber: number,
                totalThoughts: firstNumber + THOUGHTS_PER_CYCLE,
                nextThoughtNeeded: true,
              },
            },
          });
        }
        // Deliberate: paces the kill loop, so the SIGKILL lands at a random point of the writes in flight.
        await sleep(5 + Math.floor(Math.random() * 60));
        server.kill('SIGKILL');
        await server.exited;
        // Only replies that reached us before the kill count as acknowledged.
        for (const reply of server.replies.slice(from)) {
          const number = typeof reply.id === 'string' ? pending.get(reply.id) : undefined;
          if (number !== undefined) onReply(number, toolText(reply).ok);
        }
      } finally {
        server.kill('SIGKILL');
        await server.exited;
      }
    }

    const last = RawStdioServer.start(store.dir);
    try {
      await last.initialize();
      await verify(last, CYCLES);
    } finally {
      await last.stop();
    }
    console.log(
      `# kill -9 loop: ${CYCLES} cycles, ${sessions.length} sessions, acknowledged ${acknowledgedTotal}, lost ${lost}, refused ${refused}`,
    );
    assert.equal(refused, 0, 'no thought of this run should be refused');
    assert.equal(lost, 0);
    assert.ok(acknowledgedTotal > CYCLES, 'the loop acknowledged more than the first thought of each cycle');
  });
});

async function storedCount(server: RawStdioServer, sessionId: string, cycle: number): Promise<number> {
  const reply = await server.request(`count-${cycle}`, 'tools/call', {
    name: 'thinking_sessions',
    arguments: { action: 'get', sessionId, detail: 'full' },
  });
  const { ok, text } = toolText(reply);
  assert.ok(ok, text);
  return (JSON.parse(text) as { thoughts: unknown[] }).thoughts.length;
}
