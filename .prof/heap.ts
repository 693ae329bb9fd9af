import { mkdtempSync } from 'node:fs';
import { ThinkingEngine } from '../src/engine/engine';
import { FileSessionStore } from '../src/storage/fileSessionStore';
import { workloadCalls } from '../bench/workload';
(async () => {
  const gc = (globalThis as { gc?: () => void }).gc!;
  process.env.DISABLE_THOUGHT_LOGGING = 'true';
  const { SequentialThinkingServer } = await import('/work/wt/mcp/node_modules/@modelcontextprotocol/server-sequential-thinking/dist/lib.js');
  const run = (n: number) => {
    const calls = [...workloadCalls({ thoughts: n, thoughtLength: 400 })];
    if (process.argv[2] === 'ref') { const s = new SequentialThinkingServer(); for (const a of calls) s.processThought(a); return s; }
    const store = process.argv[2] === 'file' ? new FileSessionStore(mkdtempSync('/tmp/prof/h-'), { log: () => {} }) : undefined;
    const engine = new ThinkingEngine({ store, log: () => {} }); for (const a of calls) engine.process('c', a); return engine;
  };
  run(300);
  gc(); gc(); const before = process.memoryUsage().heapUsed;
  const keep = run(5000);
  gc(); gc(); console.log(process.argv[2], 'retained bytes per thought', ((process.memoryUsage().heapUsed - before) / 5000).toFixed(0), typeof keep);
})();
