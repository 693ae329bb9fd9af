// One shape for every tool: its name, what tools/list shows of it (config), one input schema and `run`. Every tool is
// registered by registerDefinedTool, the same way, with one error path: a refusal is an isError result `run` returns
// (errorResult), and anything `run` throws is logged and answered as the tool's failure (toolFailure), never as a
// JSON-RPC error. The input schema is what McpServer parses a call with; advertisedAs gives it its canonical form.
import type { CallToolResult, McpServer, RegisteredTool, ServerContext, ToolAnnotations } from '@modelcontextprotocol/server';
import type { z } from 'zod';
import { errorMessage } from '../engine/browserSafe/errorMessage';
import { mcpApp } from './app/appRegistration';
import type { ToolContext } from './toolContext';
import { toolFailure } from './toolResults';

/** What a call runs with: the connection's server, the shared context and the SDK's request context. */
export interface ToolCall {
  server: McpServer;
  context: ToolContext;
  extra: ServerContext;
}

export interface ToolDefinition<Input extends z.ZodObject> {
  name: string;
  config: {
    title: string;
    description: string;
    outputSchema?: z.ZodObject;
    annotations: ToolAnnotations;
    /** The MCP App keys of a tool with a view (registered through ext-apps' helper, which completes them). */
    _meta?: Record<string, unknown>;
  };
  input: Input;
  /** Synchronous where it can be: most calls need no await, and a promise costs every call a turn of the event loop. */
  run(args: z.output<Input>, call: ToolCall): CallToolResult | Promise<CallToolResult>;
}

/** A tool, typed by its input schema (identity: the shape is the point). */
export function defineTool<Input extends z.ZodObject>(definition: ToolDefinition<Input>): ToolDefinition<Input> {
  return definition;
}

export function registerDefinedTool<Input extends z.ZodObject>(
  server: McpServer,
  context: ToolContext,
  tool: ToolDefinition<Input>,
): RegisteredTool {
  const register = tool.config._meta ? mcpApp(server).registerTool : server.registerTool.bind(server);
  const input: z.ZodObject = tool.input;
  return register(tool.name, { ...tool.config, inputSchema: input }, (args, extra) => {
    const failed = (error: unknown): CallToolResult => {
      context.log('error', `${tool.name} failed: ${errorMessage(error)}`, extra.mcpReq.id);
      return toolFailure(tool.name, error);
    };
    try {
      // McpServer parsed args with tool.input (the parameter is typed by the widened schema above).
      const result = tool.run(args as z.output<Input>, { server, context, extra });
      return result instanceof Promise ? result.catch(failed) : result;
    } catch (error) {
      return failed(error);
    }
  });
}
