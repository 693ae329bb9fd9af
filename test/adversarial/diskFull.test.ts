// Disk full under the stdio CLI: the store sits on a small tmpfs (root only: mount -t tmpfs), thoughts are written
// until the disk refuses them. Nothing may be acknowledged that is not on disk — a fresh server on the same store must
// read back every acknowledged thought — and the refusals must be clear errors, not a crash or silence.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RawStdioServer, requireBuiltCli, toolText } from './support';

const SIZE = '256k';

function canMount(): string | undefined {
  if (process.getuid?.() !== 0) return 'not running as root (mount -t tmpfs needs it)';
  if (process.platform !== 'linux') return `tmpfs mounts are Linux only (here: ${process.platform})`;
  return undefined;
}

describe('disk full', () => {
  const reason = canMount();
  if (reason !== undefined) console.log(`# disk full: skipped, ${reason}`);
  let mountPoint: string | undefined;
  let mounted = false;
  after(() => {
    if (mounted && mountPoint) execFileSync('umount', [mountPoint]);
    if (mountPoint) rmdirSync(mountPoint);
  });

  it(`acknowledges nothing that is not on disk when a ${SIZE} tmpfs fills up`, { skip: reason, timeout: 60_000 }, async () => {
    requireBuiltCli();
    mountPoint = mkdtempSync(join(tmpdir(), 'te-diskfull-'));
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${SIZE}`, 'tmpfs', mountPoint], { stdio: 'pipe' });
    } catch (error) {
      console.log(`# disk full: skipped, mount failed (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`);
      return;
    }
    mounted = true;
    const store = join(mountPoint, 'sessions');
    const server = RawStdioServer.start(store);
    const texts = new Map<number, string>();
    const acknowledged: number[] = [];
    const refusals: string[] = [];
    let sessionId = '';
    try {
      await server.initialize();
      for (let number = 1; number <= 400 && refusals.length < 20; number++) {
        const text = `thought ${number} ${'d'.repeat(3000)}`;
        texts.set(number, text);
        const reply = await server.request(`t${number}`, 'tools/call', {
          name: 'sequentialthinking',
          arguments: {
            thought: text,
            thoughtNumber: number,
            totalThoughts: 400,
            nextThoughtNeeded: true,
            ...(sessionId ? { sessionId } : {}),
          },
        });
        const { ok, text: answer } = toolText(reply);
        if (ok) {
          acknowledged.push(number);
          if (!sessionId) sessionId = (JSON.parse(answer) as { sessionId: string }).sessionId;
        } else {
          refusals.push(answer);
          // After a refusal the number is free again: the next call retries it.
          texts.delete(number);
          number--;
          if (refusals.length >= 20) break;
        }
      }
      assert.ok(server.alive, 'the server survives a full disk');
      assert.deepEqual((await server.request('ping', 'ping')).result, {});
    } finally {
      await server.stop();
    }
    assert.ok(refusals.length > 0, `the ${SIZE} disk never filled (acknowledged ${acknowledged.length})`);
    assert.ok(
      refusals.every((text) => text.trim().length > 0),
      'every refusal says why',
    );

    const reader = RawStdioServer.start(store);
    try {
      await reader.initialize();
      const got = toolText(
        await reader.request('get', 'tools/call', { name: 'thinking_sessions', arguments: { action: 'get', sessionId, detail: 'full' } }),
      );
      assert.ok(got.ok, got.text);
      const stored = new Map(
        (JSON.parse(got.text) as { thoughts: { thoughtNumber: number; thought: string }[] }).thoughts.map((thought) => [
          thought.thoughtNumber,
          thought.thought,
        ]),
      );
      const lost = acknowledged.filter((number) => stored.get(number) !== texts.get(number));
      console.log(
        `# disk full (${SIZE} tmpfs): acknowledged ${acknowledged.length}, refused ${refusals.length}, lost ${lost.length}; first refusal: ${refusals[0]?.slice(0, 160)}`,
      );
      assert.deepEqual(lost, []);
    } finally {
      await reader.stop();
    }
  });
});
