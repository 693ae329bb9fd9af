// The entry of dist/cli.js, the command people and MCP clients start: it turns Node's compile cache on, then loads the
// CLI itself (dist/cli-main.js, built from main.ts). From the second start on, Node reads the 3 MB bundle's compiled
// code from disk instead of parsing and compiling it again: spawn → initialize answered went from 316 to 270 ms
// (median of 11, this machine); `npm run bench -- context` measures start-up against the reference server. The cache
// lives where NODE_COMPILE_CACHE says, else in the OS temp folder; NODE_DISABLE_COMPILE_CACHE=1 turns it off; one that
// cannot be written costs nothing. The Node version check runs before all this (esbuild.mjs's banner).
import { createRequire, enableCompileCache } from 'node:module';

// Node 22.1 brought it; 22.0, which the version check lets through, has none.
if (typeof enableCompileCache === 'function') enableCompileCache();
// Loaded only now, so that its compilation goes through the cache (an import would be hoisted above the line before),
// and at run time from beside this file: the bundler leaves a created require alone.
createRequire(__filename)('./cli-main.js');
