// The shape of one benchmark section. bench/run.ts runs the sections in order and prints their results; a section
// owns one concern (tool calls, store timings, webview render times, ...) in its own file.

/** One target a section checks, printed as PASS/FAIL. */
export interface BenchCheck {
  name: string;
  pass: boolean;
  /** The measured value against the target, e.g. "p50 ratio 0.62 (target <= 0.80)". */
  detail: string;
}

export interface BenchSectionResult {
  /** Lines of the section's report (tables, figures), printed as they are. */
  lines: string[];
  checks: BenchCheck[];
}

export interface BenchContext {
  /** The repository root. */
  root: string;
  /** A fresh temporary directory for this section; removed after the run. */
  tempDir: string;
  /** Progress messages (stderr), so long sections show they are alive. */
  progress: (message: string) => void;
}

export interface BenchSection {
  title: string;
  run(context: BenchContext): Promise<BenchSectionResult>;
}

/** The value below which `fraction` of the sorted samples fall (nearest rank). */
export function percentile(sortedAscending: readonly number[], fraction: number): number {
  if (sortedAscending.length === 0) return Number.NaN;
  const rank = Math.ceil(fraction * sortedAscending.length) - 1;
  return sortedAscending[Math.min(sortedAscending.length - 1, Math.max(0, rank))];
}

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** A run-size override from the environment (e.g. THOUGHT_EXPLORER_BENCH_ROUNDS); anything but a positive whole number is ignored. */
export function positiveIntegerFromEnv(name: string): number | undefined {
  const value = Number(process.env[name]);
  return Number.isInteger(value) && value > 0 ? value : undefined;
}

export function formatMs(ms: number): string {
  return ms >= 100 ? `${ms.toFixed(0)} ms` : ms >= 10 ? `${ms.toFixed(1)} ms` : `${ms.toFixed(3)} ms`;
}
