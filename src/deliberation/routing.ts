// `auto` routing (after mas-sequential-thinking): a deterministic complexity score from the problem and the session so
// far picks a single, double, triple or full hat sequence, so simple questions do not pay for six model calls.

export type RoutingBand = 'single' | 'double' | 'triple' | 'full';

export interface SessionSignals {
  /** Branches the session already has (open lines of thought). */
  branches: number;
  /** Revisions the session already has (the reasoning has been corrected). */
  revisions: number;
}

export interface ComplexityFactors {
  length: number;
  questions: number;
  constraints: number;
  technical: number;
  branches: number;
  revisions: number;
}

export interface RoutingDecision {
  /** 0-100. */
  score: number;
  factors: ComplexityFactors;
  band: RoutingBand;
  sequence: string[];
  reason: string;
  /** Model calls saved against the full six-hat sequence, in percent. */
  estimatedSavingPercent: number;
}

export const BAND_SEQUENCES: Readonly<Record<RoutingBand, readonly string[]>> = {
  single: ['factual'],
  double: ['factual', 'synthesis'],
  triple: ['factual', 'critical', 'synthesis'],
  full: ['factual', 'emotional', 'critical', 'optimistic', 'creative', 'synthesis'],
};

/** Lower bounds of each band's score. */
export const BAND_THRESHOLDS = { double: 20, triple: 40, full: 60 } as const;

const CONSTRAINT_WORDS =
  /\b(must|should|shall|need to|required?|requirements?|without|only|at least|at most|no more than|within|deadline|budget|limit(?:s|ed)?|cannot|can't|constraints?|trade-?offs?|compatib\w*|comply|complian\w*)\b/gi;
const TECHNICAL_WORDS =
  /\b(api|latency|throughput|database|schema|algorithm|complexity|concurren\w*|cache|caching|protocol|architecture|deploy\w*|kubernetes|microservices?|thread(?:s|ing)?|memory|cpu|gpu|sql|http|tls|encryption|compiler|runtime|typescript|python|regression|migration|scal\w*|distributed|consensus|idempot\w*|queue|index(?:es|ing)?|vector|model|latenc\w*|benchmark)\b/gi;
const CODE_LIKE = /(`[^`]+`|\b[a-z]+[A-Z][A-Za-z]*\b|\b\w+\(\)|\b\d+(?:\.\d+)?\s?(?:ms|s|gb|mb|kb|%|rps|qps)\b)/g;

function matches(text: string, pattern: RegExp): number {
  return text.match(pattern)?.length ?? 0;
}

export function complexityFactors(problem: string, session: SessionSignals = { branches: 0, revisions: 0 }): ComplexityFactors {
  const words = problem.split(/\s+/).filter((word) => word !== '').length;
  const technicalHits = matches(problem, TECHNICAL_WORDS) + matches(problem, CODE_LIKE);
  return {
    // 1 point per 6 words, at most 25: a long problem carries more to weigh.
    length: Math.min(25, Math.floor(words / 6)),
    questions: Math.min(20, 7 * matches(problem, /\?/g)),
    constraints: Math.min(20, 5 * matches(problem, CONSTRAINT_WORDS)),
    // Density, not count: technical terms per 20 words, 4 points each, at most 15.
    technical: Math.min(15, Math.round((technicalHits / Math.max(words, 1)) * 20 * 4)),
    branches: Math.min(10, 5 * session.branches),
    revisions: Math.min(10, 5 * session.revisions),
  };
}

export function routeProblem(problem: string, session?: SessionSignals): RoutingDecision {
  const factors = complexityFactors(problem, session);
  const score = Math.min(
    100,
    Object.values(factors).reduce((sum, value) => sum + value, 0),
  );
  const band: RoutingBand =
    score >= BAND_THRESHOLDS.full
      ? 'full'
      : score >= BAND_THRESHOLDS.triple
        ? 'triple'
        : score >= BAND_THRESHOLDS.double
          ? 'double'
          : 'single';
  const sequence = [...BAND_SEQUENCES[band]];
  const full = BAND_SEQUENCES.full.length;
  const estimatedSavingPercent = Math.round(((full - sequence.length) / full) * 100);
  const parts = (Object.entries(factors) as [keyof ComplexityFactors, number][])
    .filter(([, value]) => value > 0)
    .map(([name, value]) => `${name} ${value}`);
  const range =
    band === 'single'
      ? `< ${BAND_THRESHOLDS.double}`
      : band === 'double'
        ? `${BAND_THRESHOLDS.double}-${BAND_THRESHOLDS.triple - 1}`
        : band === 'triple'
          ? `${BAND_THRESHOLDS.triple}-${BAND_THRESHOLDS.full - 1}`
          : `>= ${BAND_THRESHOLDS.full}`;
  const reason =
    `complexity ${score}/100 (${parts.length > 0 ? parts.join(', ') : 'no signals'}) is in the ${band} band (${range}): ` +
    `${sequence.join(' → ')}; ${sequence.length} of ${full} hat calls, about ${estimatedSavingPercent}% fewer than the full sequence`;
  return { score, factors, band, sequence, reason, estimatedSavingPercent };
}
