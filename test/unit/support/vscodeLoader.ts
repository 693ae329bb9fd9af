// Makes `require('vscode')` resolve to the test stub, so extension modules load in plain Node. Import this module
// before any module under test (imports run in order in the CommonJS output tsx produces for these tests).
import Module from 'node:module';

interface ModuleInternals {
  _resolveFilename(request: string, ...rest: unknown[]): string;
}

const stubPath = require.resolve('./vscodeStub');
const internals = Module as unknown as ModuleInternals;
const originalResolve = internals._resolveFilename;
internals._resolveFilename = function resolveWithVscodeStub(this: unknown, request: string, ...rest: unknown[]): string {
  if (request === 'vscode') return stubPath;
  return originalResolve.call(this, request, ...rest);
};
