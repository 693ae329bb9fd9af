// package.json as VS Code reads it: every `%key%` placeholder replaced by its text from package.nls.json (the
// manifest's strings live there, see scripts/nlsManifest.mjs), so tests can check what a person sees.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

function substitute(value: unknown, nls: Record<string, string>): unknown {
  if (typeof value === 'string') {
    const key = /^%([^%\s]+)%$/.exec(value)?.[1];
    return key !== undefined && key in nls ? nls[key] : value;
  }
  if (Array.isArray(value)) return value.map((item) => substitute(item, nls));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, substitute(item, nls)]));
  }
  return value;
}

export function readLocalizedManifest<T = Record<string, unknown>>(root: string): T {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as unknown;
  const nls = JSON.parse(readFileSync(join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;
  return substitute(manifest, nls) as T;
}
