// Ids that must not repeat across reloads (a revived webview starts its counters again), from the Web Crypto API that
// both browsers and Node (globalThis.crypto) provide.

/** `prefix-` and 16 random hex digits. */
export function randomId(prefix: string): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return `${prefix}-${hex}`;
}
