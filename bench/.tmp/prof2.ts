import { runRound } from '../toolCalls';
import { mkdtempSync } from 'node:fs';
const ref = '/work/wt/perf2/node_modules/@modelcontextprotocol/server-sequential-thinking/dist/index.js';
const files = process.argv.slice(2);
async function main() {
  const env = { ...(process.env as Record<string, string>), DISABLE_THOUGHT_LOGGING: 'true' };
  const servers = files.map((file, i) => {
    const dir = `/tmp/perf2/prof-${i}`;
    const store = mkdtempSync('/tmp/perf2/store-');
    return { label: String(i), command: process.execPath, args: ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--cpu-prof-interval=100', file === 'ref' ? ref : file, ...(file === 'ref' ? [] : ['--storage-path', store])], env };
  });
  const r = await runRound(servers, { thoughts: Number(process.env.N ?? 5000), thoughtLength: 400 });
  console.log(JSON.stringify(r.map((x) => ({ p50: x.p50.toFixed(3), cpu: x.serverCpuUsPerCall, rss: x.rssMb }))));
}
main();
