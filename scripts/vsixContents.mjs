// Reads the file list of a .vsix (a zip) from its central directory, and judges it against what the package may
// hold: the runtime bundles and assets, never sources, tests, source maps or node_modules.
import { readFileSync } from 'node:fs';

/** Entry names of a zip file (no extraction; stored and deflated entries alike). */
export function zipEntries(file) {
  const data = readFileSync(file);
  // The end-of-central-directory record sits in the last 64 KiB + 22 bytes.
  let end = -1;
  for (let offset = data.length - 22; offset >= Math.max(0, data.length - 65_557); offset--) {
    if (data.readUInt32LE(offset) === 0x06054b50) {
      end = offset;
      break;
    }
  }
  if (end < 0) throw new Error(`${file} is not a zip file (no end-of-central-directory record)`);
  const count = data.readUInt16LE(end + 10);
  let offset = data.readUInt32LE(end + 16);
  const names = [];
  for (let index = 0; index < count; index++) {
    if (data.readUInt32LE(offset) !== 0x02014b50) throw new Error(`${file}: corrupt central directory at entry ${index}`);
    const nameLength = data.readUInt16LE(offset + 28);
    const extraLength = data.readUInt16LE(offset + 30);
    const commentLength = data.readUInt16LE(offset + 32);
    names.push(data.toString('utf8', offset + 46, offset + 46 + nameLength));
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return names;
}

/** Files the extension needs at run time, relative to the extension folder inside the .vsix. */
export const REQUIRED_FILES = [
  'package.json',
  'dist/extension.js',
  'dist/core.js',
  'dist/mcpServer.js',
  // Required on demand: OTLP export and trace streaming.
  'dist/telemetry.js',
  // Started by dist/telemetry.js when trace streaming is on: encodes and sends spans off the extension host's thread.
  'dist/otlpWorker.js',
  // Required by the stdio CLI when a model endpoint is configured.
  'dist/openai.js',
  'license.txt',
  'changelog.md',
];

const FORBIDDEN = [
  { pattern: /\.map$/, why: 'source map' },
  { pattern: /(^|\/)src\//, why: 'source folder' },
  { pattern: /(^|\/)test\//, why: 'test folder' },
  { pattern: /(^|\/)node_modules\//, why: 'node_modules (everything is bundled)' },
  { pattern: /(?<!\.d)\.ts$/, why: 'TypeScript source' },
  { pattern: /(^|\/)(scripts|bench|docs|out|\.ci|\.vscode)\//, why: 'development folder' },
  { pattern: /\.vsix$/, why: 'another package' },
  { pattern: /^media\/.*\.css$/, why: 'stylesheet source (the webview loads the built copy in dist/webview/)' },
];

/** Problems with a .vsix's contents, as readable lines (empty when it holds only what runs). */
export function vsixProblems(entries) {
  const files = entries.filter((name) => name.startsWith('extension/')).map((name) => name.slice('extension/'.length));
  const problems = [];
  for (const required of REQUIRED_FILES) {
    // vsce renames some files (LICENSE → LICENSE.txt, CHANGELOG.md → changelog.md): compare without case.
    if (!files.some((file) => file.toLowerCase() === required.toLowerCase())) problems.push(`missing ${required}`);
  }
  for (const file of files) {
    const rule = FORBIDDEN.find(({ pattern }) => pattern.test(file));
    if (rule) problems.push(`${file}: ${rule.why} must not be packaged`);
  }
  return problems;
}
