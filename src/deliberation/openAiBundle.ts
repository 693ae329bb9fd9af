// The entry of dist/openai.js: the OpenAI client on its own, beside dist/cli.js, which loads it only when a model
// endpoint is configured (see openAiGateway.ts and esbuild.mjs). It is a third of the CLI's code; parsed at every start
// it cost about 38 ms of the CLI's start-up (npm run bench -- context).
// A named export: dist/cli.js loads it with import(), which sees a CommonJS bundle's named exports, not its default.
export { OpenAI } from 'openai';
