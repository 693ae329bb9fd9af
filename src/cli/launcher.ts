// The entry of dist/cli.js, the command people and MCP clients start: it turns Node's compile cache on, then loads the
// CLI itself (dist/cli-main.js, built from main.ts). From the second start on, Node reads the 3 MB bundle's compiled
// code from disk instead of parsing and compiling it again: spawn → initialize answered went from 316 to 270 ms
// (median of 11, this machine); `npm run bench -- context` measures start-up against the reference server. The cache
// lives in a per-user folder of the OS temp folder that only we may write (compileCacheFolder.ts), else nowhere; where
// NODE_COMPILE_CACHE says, Node turned it on itself before this runs; NODE_DISABLE_COMPILE_CACHE=1 turns it off. One
// that cannot be created costs nothing. The Node version check runs before all this (esbuild.mjs's banner).
import { createRequire, enableCompileCache } from 'node:module';
import { tmpdir } from 'node:os';
import { privateCompileCacheFolder } from './compileCacheFolder';

function turnOnCompileCache(): void {
  // Node 22.1 brought it; 22.0, which the version check lets through, has none.
  if (typeof enableCompileCache !== 'function') return;
  if (process.env.NODE_COMPILE_CACHE !== undefined || process.env.NODE_DISABLE_COMPILE_CACHE !== undefined) return;
  const folder = privateCompileCacheFolder(tmpdir(), process.getuid?.());
  if (folder !== undefined) enableCompileCache(folder);
}

turnOnCompileCache();
// Loaded only now, so that its compilation goes through the cache (an import would be hoisted above the line before),
// and at run time from beside this file: the bundler leaves a created require alone.
createRequire(__filename)('./cli-main.js');
