// The two small statistics the insights use, defined once so every view reports the same figure.

/** The middle value (the mean of the two middle values for an even count); 0 for no values. Does not change `values`. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = Float64Array.from(values).sort();
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** part / whole, 0 when whole is 0, rounded to 4 decimals so replies stay short. */
export function ratio(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 10_000;
}
