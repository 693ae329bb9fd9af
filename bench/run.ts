// `npm run bench`: runs each benchmark section in order and prints its figures and PASS/FAIL checks. A thin
// orchestrator: the sections live in their own files (see section.ts for the interface).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { BenchCheck, BenchSection } from './section';
import { recommendationSection } from './recommendations';
import { toolCallSection } from './toolCalls';
import { storeTimingSection } from './storeTimings';
import { webviewRenderSection } from './webviewRender';
import { vscodeRedrawSection } from './vscodeRedraw';
import { vscodeActivationSection } from './vscodeActivation';
import { deliberationSection } from './deliberation';
import { bigSessionSection } from './bigSession';
import { feedbackSection } from './feedback';
import { insightsSection } from './insights';
import { mcpAppSection } from './mcpApp';
import { contextSection } from './context';
import { skillSection } from './skill';
import { otlpStreamingSection } from './otlpStreaming';

const SECTIONS: BenchSection[] = [
  toolCallSection,
  otlpStreamingSection,
  contextSection,
  skillSection,
  storeTimingSection,
  webviewRenderSection,
  bigSessionSection,
  vscodeActivationSection,
  vscodeRedrawSection,
  recommendationSection,
  deliberationSection,
  feedbackSection,
  insightsSection,
  mcpAppSection,
];

async function main(): Promise<number> {
  const root = resolve(__dirname, '..');
  const only = process.argv.slice(2);
  const allChecks: BenchCheck[] = [];
  for (const section of SECTIONS) {
    if (only.length > 0 && !only.some((name) => section.title.toLowerCase().includes(name.toLowerCase()))) continue;
    const tempDir = mkdtempSync(join(tmpdir(), 'thought-explorer-bench-'));
    process.stdout.write(`\n## ${section.title}\n\n`);
    try {
      const result = await section.run({ root, tempDir, progress: (message) => process.stderr.write(`  … ${message}\n`) });
      for (const line of result.lines) process.stdout.write(`${line}\n`);
      for (const check of result.checks) {
        process.stdout.write(`${check.pass ? 'PASS' : 'FAIL'}  ${check.name}: ${check.detail}\n`);
        allChecks.push(check);
      }
    } catch (error) {
      const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
      process.stdout.write(`FAIL  ${section.title} did not run: ${detail}\n`);
      allChecks.push({ name: section.title, pass: false, detail: 'did not run' });
    } finally {
      rmSync(tempDir, { recursive: true, force: true });
    }
  }
  const failed = allChecks.filter((check) => !check.pass);
  process.stdout.write(
    `\n${allChecks.length - failed.length}/${allChecks.length} targets met${failed.length > 0 ? `; missed: ${failed.map((check) => check.name).join(', ')}` : ''}\n`,
  );
  return failed.length === 0 ? 0 : 1;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
