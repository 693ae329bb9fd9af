// How insights figures read, the same in the explorer's Insights tab and in the exports' Insights section.

/** 0.123 → "12.3%". */
export function percent(rate: number): string {
  return `${Math.round(rate * 1000) / 10}%`;
}

/** 950 ms, 12 s, 3 min 5 s, 2 h 4 min. */
export function duration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min${seconds % 60 > 0 ? ` ${seconds % 60} s` : ''}`;
  return `${Math.floor(minutes / 60)} h${minutes % 60 > 0 ? ` ${minutes % 60} min` : ''}`;
}
