// `node scripts/l10nBundle.mjs [--check]`: writes l10n/bundle.l10n.json, the English source of every runtime message
// the extension passes to `vscode.l10n.t('…')` in src/extension (a translation is `bundle.l10n.<locale>.json` with the
// same keys). Only single-quoted literal first arguments are messages; a message built at run time cannot be
// translated, so write it as a literal with {0}-style placeholders. --check exits 1 when the bundle is stale.
import { readFileSync, readdirSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The messages of one source text: first arguments of l10n.t that are single-quoted string literals. */
export function messagesIn(source) {
  const messages = [];
  for (const match of source.matchAll(/\bl10n\.t\(\s*'((?:[^'\\\n]|\\.)*)'/g)) {
    // The literal's escapes as JavaScript reads them (\' \\ \n \u…).
    messages.push(JSON.parse(`"${match[1].replace(/\\'/g, "'").replace(/"/g, '\\"')}"`));
  }
  return messages;
}

function sourceFiles(directory) {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

/** The bundle for the sources under src/extension: message → message, sorted, as @vscode/l10n-dev exports it. */
export function buildBundle(root = repo) {
  const messages = new Set(sourceFiles(join(root, 'src', 'extension')).flatMap((file) => messagesIn(readFileSync(file, 'utf8'))));
  return Object.fromEntries([...messages].sort().map((message) => [message, message]));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const path = join(repo, 'l10n', 'bundle.l10n.json');
  const text = `${JSON.stringify(buildBundle(), null, 2)}\n`;
  if (process.argv.includes('--check')) {
    let current = '';
    try {
      current = readFileSync(path, 'utf8');
    } catch {
      // missing: stale
    }
    if (current !== text) {
      console.error('l10n/bundle.l10n.json is stale: run node scripts/l10nBundle.mjs');
      process.exit(1);
    }
  } else {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    console.log(`${Object.keys(JSON.parse(text)).length} messages in l10n/bundle.l10n.json`);
  }
}
