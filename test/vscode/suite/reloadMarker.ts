// Where the window-reload test (windowReload.test.ts) leaves word for its second phase, and what it writes there.
// Shared with index.ts, which runs only that test in a window started by the reload. Next to the run's session
// storage (a fresh temporary folder per run), so a marker never outlives its run.
import { dirname, join } from 'node:path';

export interface ReloadMarker {
  sessionId: string;
  tab: 'stageGraph' | 'branchTree' | 'revisionChain';
  selectedSeq: number;
  /** The store the test pointed the extension at, removed at the end. */
  storage: string;
  /** Tests of the first window that had failed when it reloaded (its mocha run never gets to report them). */
  failuresBefore: number;
}

/** globalThis key of a function index.ts sets: the failures so far of the mocha run in this window. */
export const SUITE_FAILURES_KEY = '__thoughtExplorerSuiteFailures';

const storage = process.env.THOUGHT_EXPLORER_STORAGE;
export const RELOAD_MARKER = storage ? join(dirname(storage), 'window-reload-marker.json') : undefined;
/** The compiled file of the reload test: the only one run in the window the reload starts. */
export const RELOAD_TEST_FILE = 'windowReload.test.js';
