// A big session for `npm run screenshots -- --big`: 68 thoughts with six branches of three thoughts each and two
// revisions on the main line, the size at which a session used to open unreadable (issue 32). Plain data, played
// through the demo player like the sample session; no strategy, so any stage is left to the engine.
const TOTAL = 68;
/** Main-line thought numbers a branch forks from, and its name. */
const FORKS = [
  [6, 'retry-budget'],
  [14, 'pool-size'],
  [22, 'index-scan'],
  [31, 'cache-warmup'],
  [40, 'batch-writes'],
  [46, 'read-replica'],
];
const BRANCH_LENGTH = 3;
/** Main-line thought number → the earlier main-line thought it revises. */
const REVISIONS = new Map([
  [19, 9],
  [47, 36],
]);

const MAIN_TEXT = [
  'The checkout API p99 rose from 180 ms to 1.4 s after Tuesday’s deploy; find where the time goes.',
  'Traces show most of the extra time inside the order-service database calls.',
  'Connection waits, not query execution, dominate the slow spans.',
  'The pool is capped at 20 connections per instance, as before the deploy.',
  'The deploy added a fraud check that holds a connection while it calls an external service.',
  'Two ways out: release the connection before the call, or give the pool more room.',
];
const BRANCH_TEXT = [
  'Try this line: what would it change, and what would it cost?',
  'Measured it on the staging copy with replayed production traffic.',
  'Result compared with the main line’s numbers; keep or drop.',
];

function mainText(number) {
  return number <= MAIN_TEXT.length
    ? MAIN_TEXT[number - 1]
    : `Step ${number}: check the next suspect in the order-service path and note what the traces say about it.`;
}

/** Tool-call inputs for `sequentialthinking`, in order. */
export function branchingSession() {
  const steps = [];
  const add = (fields) => {
    const thoughtNumber = steps.length + 1;
    steps.push({ ...fields, thoughtNumber, totalThoughts: TOTAL, nextThoughtNeeded: thoughtNumber < TOTAL });
    return thoughtNumber;
  };
  let mainCount = 0;
  const mainNumbers = new Map();
  while (steps.length < TOTAL) {
    mainCount++;
    const revises = REVISIONS.get(mainCount);
    const number = add({
      thought:
        revises === undefined
          ? mainText(mainCount)
          : `Correction of #${mainNumbers.get(revises)}: the earlier reading missed the retries the client makes.`,
      ...(revises === undefined ? {} : { isRevision: true, revisesThought: mainNumbers.get(revises) }),
    });
    mainNumbers.set(mainCount, number);
    const fork = FORKS.find(([at]) => at === mainCount);
    if (!fork) continue;
    for (let index = 0; index < BRANCH_LENGTH && steps.length < TOTAL; index++)
      add({ thought: `${fork[1]}: ${BRANCH_TEXT[index]}`, branchFromThought: number, branchId: fork[1] });
  }
  return steps;
}
