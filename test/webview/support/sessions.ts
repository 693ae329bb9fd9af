// Sessions for the explorer's Chromium tests and benchmark, recorded by the real engine (in memory) so every thought,
// stage, revision and branch is one the engine would really produce.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ThinkingEngine } from '../../../src/engine/engine';
import type { SessionMeta, SessionSnapshot } from '../../../src/engine/model';

/** The ReAct loop after its two opening stages; evaluation_checkpoint goes back to action_planning. */
const REACT_LOOP = ['action_planning', 'action_execution', 'observation_reception', 'reasoning_update', 'evaluation_checkpoint'];

export interface ReactSessionOptions {
  /** Thoughts in the session (at least 4). */
  thoughts: number;
  /** End in final_response (complete) instead of leaving the session live; may add up to four loop thoughts. */
  complete?: boolean;
  /** Text of the n-th thought (1-based); default: a sentence naming it. */
  text?: (n: number) => string;
  /** Every n-th thought revises the one three before it (0: none). Default 10. */
  revisionEvery?: number;
  /** Every n-th thought starts a branch from the one four before it (0: none). Default 25. */
  branchEvery?: number;
  sessionId?: string;
}

/** A ReAct session of `thoughts` thoughts with revisions and branches at a fixed rhythm (as in the bench workload). */
export function reactSession(options: ReactSessionOptions): SessionSnapshot {
  const engine = new ThinkingEngine({ limits: { maxThoughtsPerSession: 100_000 }, log: () => undefined });
  const total = options.thoughts;
  if (total < 4) throw new RangeError('a ReAct session here needs at least 4 thoughts');
  const revisionEvery = options.revisionEvery ?? 10;
  const branchEvery = options.branchEvery ?? 25;
  const text =
    options.text ?? ((n: number) => `Thought ${n}: weighing the evidence gathered so far and what it implies for the next step.`);
  const sessionId = options.sessionId ?? `react-${total}`;
  const loopEnd = options.complete ? total - 2 : total;
  for (let n = 1; n <= loopEnd; n++) {
    const stage = n === 1 ? 'problem_reception' : n === 2 ? 'initial_reasoning' : REACT_LOOP[(n - 3) % REACT_LOOP.length];
    const args: Record<string, unknown> = {
      sessionId,
      strategy: 'react',
      thought: text(n),
      thoughtNumber: n,
      totalThoughts: total,
      nextThoughtNeeded: true,
      stage,
    };
    if (revisionEvery > 0 && n % revisionEvery === 0 && n > 4) {
      args.isRevision = true;
      args.revisesThought = n - 3;
    } else if (branchEvery > 0 && n % branchEvery === 0 && n > 5) {
      args.branchFromThought = n - 4;
      args.branchId = `alt-${n}`;
    }
    const outcome = engine.process('fixture', args);
    if (!outcome.ok) throw new Error(`fixture thought ${n} refused: ${outcome.error}`);
  }
  // A complete session walks the loop to evaluation_checkpoint first, so it may hold a few more than `thoughts`.
  if (options.complete) return finishReact(engine, sessionId, loopEnd + 1, total, text);
  const snapshot = engine.getSession(sessionId);
  if (!snapshot) throw new Error('fixture session missing');
  return structuredClone(snapshot);
}

/** Walks the loop to evaluation_checkpoint, then solution_formulation and final_response. */
function finishReact(engine: ThinkingEngine, sessionId: string, from: number, total: number, text: (n: number) => string): SessionSnapshot {
  const current = engine.getSession(sessionId)?.meta.stage ?? 'action_planning';
  let index = REACT_LOOP.indexOf(current);
  let n = from;
  const send = (stage: string, last: boolean): void => {
    const outcome = engine.process('fixture', {
      sessionId,
      thought: text(n),
      thoughtNumber: n,
      totalThoughts: Math.max(total, n),
      nextThoughtNeeded: !last,
      stage,
    });
    if (!outcome.ok) throw new Error(`fixture thought ${n} refused: ${outcome.error}`);
    n++;
  };
  while (index !== -1 && REACT_LOOP[index] !== 'evaluation_checkpoint') {
    index++;
    send(REACT_LOOP[index], false);
  }
  send('solution_formulation', false);
  send('final_response', true);
  const snapshot = engine.getSession(sessionId);
  if (!snapshot) throw new Error('fixture session missing');
  return structuredClone(snapshot);
}

/**
 * A session that starts in `linear` and switches to `step_back` on its fourth thought (seq 3): three linear stages,
 * then two step-back stages. Recorded by the engine, so the switch is in `strategySwitches` as the host sends it.
 */
export function switchingSession(sessionId = 'switching'): SessionSnapshot {
  const engine = new ThinkingEngine({ log: () => undefined });
  const steps: [string, string][] = [
    ['linear', 'problem_reception'],
    ['linear', 'initial_thought_planning'],
    ['linear', 'thought_generation'],
    ['step_back', 'abstraction'],
    ['step_back', 'principle_identification'],
  ];
  steps.forEach(([strategy, stage], index) => {
    const n = index + 1;
    const outcome = engine.process('fixture', {
      sessionId,
      strategy,
      stage,
      thought: `Thought ${n} in ${stage}.`,
      thoughtNumber: n,
      totalThoughts: 6,
      nextThoughtNeeded: true,
    });
    if (!outcome.ok) throw new Error(`fixture thought ${n} refused: ${outcome.error}`);
  });
  const snapshot = engine.getSession(sessionId);
  if (!snapshot) throw new Error('fixture session missing');
  return structuredClone(snapshot);
}

/** The corpus of hostile thought text: each must stay text, run no script and open no dialog. */
export const INJECTION_CORPUS: readonly string[] = [
  '"]); alert(1)//',
  '<img src=x onerror=alert(1)>',
  '%%{init: {"securityLevel": "loose"}}%%',
  'click A call alert()',
  '</script><script>alert(1)</script>',
  '[click me](javascript:alert(1)) <a href="javascript:alert(1)">link</a>',
  'A["x"] --> B; click B href "javascript:alert(1)"',
  '<svg onload=alert(1)><style>*{display:none}</style>',
  // eslint-disable-next-line no-template-curly-in-string -- hostile text: a template expression that must stay text
  '`${alert(1)}` {{constructor.constructor("alert(1)")()}}',
];

/** The demo's sample ReAct session (scripts/demo/sampleSession.mjs: 12 thoughts, a revision, two branches), recorded by the engine. */
export async function demoSession(sessionId = 'demo'): Promise<SessionSnapshot> {
  const file = join(__dirname, '..', '..', '..', 'scripts', 'demo', 'sampleSession.mjs');
  const { SAMPLE_SESSION } = (await import(pathToFileURL(file).href)) as { SAMPLE_SESSION: Record<string, unknown>[] };
  const engine = new ThinkingEngine({ log: () => undefined });
  for (const step of SAMPLE_SESSION) {
    const outcome = engine.process('fixture', { ...step, sessionId });
    if (!outcome.ok) throw new Error(`demo thought ${String(step.thoughtNumber)} refused: ${outcome.error}`);
  }
  const snapshot = engine.getSession(sessionId);
  if (!snapshot) throw new Error('demo session missing');
  return structuredClone(snapshot);
}

/** The meta of a session's first `count` thoughts, as a live session shows it while it grows to `full`. */
export function metaAfter(full: SessionSnapshot, count: number): SessionMeta {
  const last = full.thoughts[count - 1];
  return {
    ...full.meta,
    status: count < full.thoughts.length ? 'live' : full.meta.status,
    stage: last.stage,
    thoughtCount: count,
    lastThoughtNumber: last.thoughtNumber,
  };
}
