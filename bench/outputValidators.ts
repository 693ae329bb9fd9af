// The bench client's outputSchema validators, compiled when the tools are listed, as SDK 1.x's Client did in
// listTools. An SDK 2.x Client compiles every listed tool's outputSchema with Ajv inside its first callTool instead
// (measured: ~0.1 s for our four output schemas on this machine, ~0.03 s for the reference's one), which would put
// the client's own one-off work into the server's "first call". The compile is timed on its own and reported beside.
import { performance } from 'node:perf_hooks';
import type { JsonSchemaType, JsonSchemaValidator, Tool, jsonSchemaValidator } from '@modelcontextprotocol/client';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/client/validators/ajv';

let ajvWarm = false;

/** The Client's own default validator (Ajv), with each compiled schema kept by its JSON text. */
export class PrecompiledOutputValidators implements jsonSchemaValidator {
  private readonly ajv = new AjvJsonSchemaValidator();
  private readonly compiled = new Map<string, JsonSchemaValidator<unknown>>();

  constructor() {
    // Ajv's own code JIT-compiled once per bench process, so the first server to connect does not pay for it.
    if (!ajvWarm)
      new AjvJsonSchemaValidator().getValidator({ type: 'object', properties: { warm: { type: 'array', items: { type: 'string' } } } });
    ajvWarm = true;
  }

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    const key = JSON.stringify(schema);
    let validator = this.compiled.get(key);
    if (!validator) {
      validator = this.ajv.getValidator<unknown>(schema);
      this.compiled.set(key, validator);
    }
    return validator as JsonSchemaValidator<T>;
  }

  /** Compiles every listed tool's outputSchema now; the milliseconds it took. */
  compileAll(tools: readonly Tool[]): number {
    const before = performance.now();
    for (const tool of tools) if (tool.outputSchema) this.getValidator(tool.outputSchema as JsonSchemaType);
    return performance.now() - before;
  }
}
