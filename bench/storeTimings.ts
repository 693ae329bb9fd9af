// Section: the durable store at scale. Lists 10,000 saved sessions and opens a 5,000-thought session, each from a
// fresh FileSessionStore on the directory (as a new CLI process or a VS Code window would), with generated data.
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ThinkingEngine } from '../src/engine/engine';
import { FileSessionStore } from '../src/storage/fileSessionStore';
import { formatMs, percentile, type BenchContext, type BenchSection, type BenchSectionResult } from './section';
import { workloadCalls } from './workload';

export const LIST_TARGET_MS = 200;
export const OPEN_TARGET_MS = 100;
const SESSIONS = 10_000;
const BIG_SESSION_THOUGHTS = 5_000;
const REPEATS = 5;

const quiet = () => {};

/** Writes `count` small sessions (three thoughts each) through the engine and the store, as agents would. */
function generateSessions(directory: string, count: number): void {
  const store = new FileSessionStore(directory, { log: quiet });
  const engine = new ThinkingEngine({ store, log: quiet });
  for (let index = 0; index < count; index++) {
    const connection = `c${index}`;
    for (let number = 1; number <= 3; number++) {
      const outcome = engine.process(connection, {
        thought: `Session ${index}, thought ${number}: about topic ${index % 97}`,
        thoughtNumber: number,
        totalThoughts: 3,
        nextThoughtNeeded: number < 3,
      });
      if (!outcome.ok) throw new Error(outcome.error);
    }
    engine.closeConnection(connection);
  }
  store.close();
}

function generateBigSession(directory: string): string {
  const store = new FileSessionStore(directory, { log: quiet });
  const engine = new ThinkingEngine({ store, log: quiet });
  let sessionId = '';
  for (const args of workloadCalls({ thoughts: BIG_SESSION_THOUGHTS, thoughtLength: 400 })) {
    const outcome = engine.process('bench', args);
    if (!outcome.ok) throw new Error(outcome.error);
    sessionId = outcome.reply.sessionId;
  }
  store.close();
  return sessionId;
}

function timeFresh<T>(directory: string, action: (store: FileSessionStore) => T, check: (value: T) => void): number[] {
  const times: number[] = [];
  for (let repeat = 0; repeat < REPEATS; repeat++) {
    const started = performance.now();
    const store = new FileSessionStore(directory, { log: quiet });
    const value = action(store);
    times.push(performance.now() - started);
    check(value);
    store.close();
  }
  return times.sort((a, b) => a - b);
}

export const storeTimingSection: BenchSection = {
  title: 'Durable store: listing 10,000 sessions and opening a 5,000-thought session',
  async run(context: BenchContext): Promise<BenchSectionResult> {
    const manyDir = join(context.tempDir, 'many');
    const bigDir = join(context.tempDir, 'big');
    context.progress(`writing ${SESSIONS} sessions`);
    generateSessions(manyDir, SESSIONS);
    context.progress(`writing one session of ${BIG_SESSION_THOUGHTS} thoughts`);
    const bigId = generateBigSession(bigDir);

    const listTimes = timeFresh(
      manyDir,
      (store) => store.listSessions({ limit: SESSIONS }),
      (result) => {
        if (result.total !== SESSIONS || result.sessions.length !== SESSIONS)
          throw new Error(`listed ${result.sessions.length}/${result.total} sessions, expected ${SESSIONS}`);
      },
    );
    const firstPageTimes = timeFresh(
      manyDir,
      (store) => store.listSessions({ limit: 50 }),
      (result) => {
        if (result.sessions.length !== 50) throw new Error(`first page has ${result.sessions.length} sessions`);
      },
    );
    const openTimes = timeFresh(
      bigDir,
      (store) => store.loadSession(bigId),
      (snapshot) => {
        if (snapshot?.thoughts.length !== BIG_SESSION_THOUGHTS)
          throw new Error(`opened ${snapshot?.thoughts.length ?? 0} thoughts, expected ${BIG_SESSION_THOUGHTS}`);
      },
    );
    const listMedian = percentile(listTimes, 0.5);
    const openMedian = percentile(openTimes, 0.5);
    return {
      lines: [
        `Each figure: a new FileSessionStore on the directory plus the call, ${REPEATS} repeats (median, worst).`,
        '',
        '| operation | median | worst |',
        '|---|---|---|',
        `| list all ${SESSIONS} sessions | ${formatMs(listMedian)} | ${formatMs(listTimes[listTimes.length - 1])} |`,
        `| list the newest 50 of ${SESSIONS} | ${formatMs(percentile(firstPageTimes, 0.5))} | ${formatMs(firstPageTimes[firstPageTimes.length - 1])} |`,
        `| open a ${BIG_SESSION_THOUGHTS}-thought session | ${formatMs(openMedian)} | ${formatMs(openTimes[openTimes.length - 1])} |`,
      ],
      checks: [
        {
          name: `list ${SESSIONS} sessions`,
          pass: listMedian <= LIST_TARGET_MS,
          detail: `${formatMs(listMedian)} (target <= ${LIST_TARGET_MS} ms)`,
        },
        {
          name: `open a ${BIG_SESSION_THOUGHTS}-thought session`,
          pass: openMedian <= OPEN_TARGET_MS,
          detail: `${formatMs(openMedian)} (target <= ${OPEN_TARGET_MS} ms)`,
        },
      ],
    };
  },
};
