// Section: what steering costs the agent's thought path. The stdio CLI checks the store (one stat) before each
// thought so that feedback given in VS Code reaches its next reply; a session without feedback must not pay for
// delivery. Measures engine.process over a durable store with the check off and on (alternating rounds, so machine
// load hits both alike), and the reply that delivers a note.
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ThinkingEngine } from '../src/engine/engine';
import { FileSessionStore } from '../src/storage/fileSessionStore';
import { formatMs, percentile, type BenchContext, type BenchSection, type BenchSectionResult } from './section';
import { workloadCalls } from './workload';

const THOUGHTS = 2_000;
const ROUNDS = 4;
/** The check may add at most this to a thought's median time (a stat is a few microseconds). */
export const CHECK_OVERHEAD_TARGET_MS = 0.05;

const quiet = () => {};

/** Per-thought times of one session of THOUGHTS thoughts, sorted. */
function timeSession(directory: string, checkStoreBeforeThought: boolean): number[] {
  const store = new FileSessionStore(directory, { log: quiet });
  const engine = new ThinkingEngine({ store, log: quiet, checkStoreBeforeThought });
  const times: number[] = [];
  for (const args of workloadCalls({ thoughts: THOUGHTS, thoughtLength: 400 })) {
    const started = performance.now();
    const outcome = engine.process('bench', args);
    times.push(performance.now() - started);
    if (!outcome.ok) throw new Error(outcome.error);
  }
  store.close();
  return times.sort((a, b) => a - b);
}

/** Time of the reply that delivers one note, given by a second process's store (read back through the journal). */
function timeDelivery(directory: string): number[] {
  const times: number[] = [];
  const store = new FileSessionStore(directory, { log: quiet });
  const engine = new ThinkingEngine({ store, log: quiet, checkStoreBeforeThought: true });
  const other = new FileSessionStore(directory, { log: quiet });
  const editor = new ThinkingEngine({ store: other, log: quiet });
  let number = 1;
  const first = engine.process('bench', { thought: 'start', thoughtNumber: number++, totalThoughts: 200, nextThoughtNeeded: true });
  if (!first.ok) throw new Error(first.error);
  for (let round = 0; round < 50; round++) {
    const given = editor.addFeedback(first.reply.sessionId, { kind: 'note', text: `note ${round}` });
    if (!given.ok) throw new Error(given.error);
    const started = performance.now();
    const outcome = engine.process('bench', {
      thought: `thought ${number}`,
      thoughtNumber: number++,
      totalThoughts: 200,
      nextThoughtNeeded: true,
    });
    times.push(performance.now() - started);
    if (!outcome.ok || outcome.reply.userFeedback?.length !== 1) throw new Error('note not delivered');
  }
  store.close();
  other.close();
  return times.sort((a, b) => a - b);
}

export const feedbackSection: BenchSection = {
  title: 'feedback: the store check before each thought, and delivery',
  async run(context: BenchContext): Promise<BenchSectionResult> {
    const off: number[] = [];
    const on: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      context.progress(`round ${round + 1}/${ROUNDS}`);
      off.push(percentile(timeSession(join(context.tempDir, `off-${round}`), false), 0.5));
      on.push(percentile(timeSession(join(context.tempDir, `on-${round}`), true), 0.5));
    }
    const median = (values: number[]) =>
      percentile(
        [...values].sort((a, b) => a - b),
        0.5,
      );
    const overhead = median(on) - median(off);
    const delivery = timeDelivery(join(context.tempDir, 'delivery'));
    return {
      lines: [
        `${THOUGHTS} thoughts of 400 characters per session, ${ROUNDS} rounds each, median of the per-session medians:`,
        `  check off: ${formatMs(median(off))} per thought`,
        `  check on:  ${formatMs(median(on))} per thought (one lstat of the journal)`,
        `  reply delivering a note written by another process (re-read of a 2-200-thought session): p50 ${formatMs(percentile(delivery, 0.5))}, p95 ${formatMs(percentile(delivery, 0.95))}`,
      ],
      checks: [
        {
          name: 'store check overhead per thought',
          pass: overhead <= CHECK_OVERHEAD_TARGET_MS,
          detail: `${formatMs(overhead)} (target <= ${formatMs(CHECK_OVERHEAD_TARGET_MS)})`,
        },
      ],
    };
  },
};
