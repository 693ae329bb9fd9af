// Benchmark section: how long Thought Explorer's activate() takes inside a real VS Code (code-server, the harness of
// scripts/suiteRunner.mjs), as the extension measures it itself (performance.now() around activate(), returned on its
// API as activationMs and written to its log). Each launch is a new code-server with a new profile, so each is a new
// extension host that loads and activates the extension once: the first launch after the build is "cold", the ones
// after it are "warm" (the bundle and VS Code's own files in the OS cache). The target is the warm median.
import { prepareInEditorBench } from './inEditor';
import { formatMs, percentile, type BenchSection } from './section';

const WARM_LAUNCHES = Number(process.env.THOUGHT_EXPLORER_BENCH_ACTIVATION_WARM ?? 3);
const WARM_TARGET_MS = 10;
const RUN_TIMEOUT_SECONDS = 300;

export const vscodeActivationSection: BenchSection = {
  title: 'Extension activation in real VS Code (code-server)',
  async run({ root, progress }) {
    const prepared = await prepareInEditorBench(root, 'activation.bench.js');
    if ('skipped' in prepared) return { lines: [prepared.skipped], checks: [] };
    const {
      harness: { runInEditorSuite, cleanupAll },
      testsPath,
    } = prepared;

    const samples: number[] = [];
    for (let launch = 0; launch <= WARM_LAUNCHES; launch++) {
      let measured: number | undefined;
      const output: string[] = [];
      let exitCode: number;
      try {
        exitCode = await runInEditorSuite({
          developRepo: true,
          testsPath,
          timeoutSeconds: RUN_TIMEOUT_SECONDS,
          log: progress,
          onOutput: (line) => {
            output.push(line);
            const match = /activationMs=([\d.]+)/.exec(line);
            if (match) measured = Number(match[1]);
          },
        });
      } finally {
        await cleanupAll();
      }
      if (exitCode !== 0 || measured === undefined)
        throw new Error(`launch ${launch + 1}: no activation time (exit ${exitCode}): ${output.slice(-5).join(' / ') || 'no output'}`);
      progress(`launch ${launch + 1}: activate() ${formatMs(measured)}`);
      samples.push(measured);
    }
    const [cold, ...warm] = samples;
    const warmMedian = percentile(
      [...warm].sort((a, b) => a - b),
      0.5,
    );
    return {
      lines: [
        `activate() as the extension measures it (performance.now() around it; its bundle's loading is not included),`,
        `one new code-server and extension host per launch: the first launch after the build (cold), then ${warm.length} more (warm).`,
        '',
        '| launch | activate() |',
        '|---|---:|',
        `| cold (1st) | ${formatMs(cold)} |`,
        ...warm.map((ms, index) => `| warm (${index + 2}) | ${formatMs(ms)} |`),
      ],
      checks: [
        {
          name: `activate() warm ≤ ${WARM_TARGET_MS} ms (real VS Code)`,
          pass: warm.length > 0 && warmMedian <= WARM_TARGET_MS,
          detail: `warm median ${formatMs(warmMedian)} over ${warm.length} launches; cold ${formatMs(cold)}`,
        },
      ],
    };
  },
};
