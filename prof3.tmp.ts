import { performance } from 'node:perf_hooks';
import { recommendTools } from './src/recommendations/recommender';
import { indexTools } from './src/recommendations/toolIndex';
import { parseQaInput } from './src/engine/qaInput';
import { benchTools } from './bench/recommendations';
const list = benchTools();
const tools = indexTools(list);
const base = { stepText: 'Run `npm run build` and read the errors A passing build', thought: 'Step 5: check the installed version, then run the build and read the diagnostics.', verificationTarget: 'Tailwind CSS version', isRevision: false, isNewBranch: false, limit: 5 };
const t = (label: string, fn: () => unknown) => { for (let i = 0; i < 3000; i++) fn(); const s = performance.now(); for (let i = 0; i < 10000; i++) fn(); console.log(label, ((performance.now() - s) / 10000 * 1000).toFixed(1), 'us'); };
const names = new Set(['qa_x']);
for (let r = 0; r < 2; r++) {
t('recommend with index', () => recommendTools({ ...base, tools }));
t('recommend generic', () => recommendTools(base));
t('parseQa tools', () => parseQaInput({ availableTools: list }, names));
t('indexTools (content cache)', () => indexTools([...list]));
t('json roundtrip of list', () => JSON.parse(JSON.stringify(list)));
}
