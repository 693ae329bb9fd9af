// What a deliberation says to the model: the messages of one role's call (its system prompt, the problem, the session
// so far, the perspectives before it, the task's instructions and budget, the tool results), and how a task's reply
// is read back (the STATUS line). Pure text; runner.ts decides when each call is made.
import type { ModelMessage, ModelToolCall } from '../engine/modelGateway';
import type { Role } from './roles';
import { shortened } from '../engine/browserSafe/textCut';

/** How much of a tool's result goes back to the model in the next cycle, in characters. */
const TOOL_RESULT_FOR_MODEL = 4000;
/** How much of a tool call's input is named in its description, in characters. */
const TOOL_INPUT_IN_DESCRIPTION = 200;

export const TASK_INSTRUCTIONS =
  'You work on this in cycles. Each cycle, take the work one step further. End your reply with a line "STATUS: DONE" ' +
  'when your answer is complete, or "STATUS: CONTINUE" when another cycle would improve it.';

const STATUS_LINE = /^\s*STATUS:\s*(DONE|CONTINUE)\s*$/im;

/** What every call of a deliberation knows: the problem and, when it runs inside a session, that session so far. */
export interface PromptContext {
  problem: string;
  sessionContext?: string;
}

/** An earlier role's answer, handed to the roles after it. */
export interface Perspective {
  role: Role;
  text: string;
}

/**
 * One call's messages: the role's system prompt, then one user message with the problem, the session so far, the
 * perspectives before it and `extra` (a task's instructions), then the tool results as a message of their own, so
 * the model tells them apart from the task's text.
 */
export function roleMessages(
  context: PromptContext,
  role: Role,
  thread: readonly Perspective[],
  extra: readonly string[] = [],
  toolResults: readonly string[] = [],
): ModelMessage[] {
  const parts = [`Problem:\n${context.problem}`];
  if (context.sessionContext) parts.push(`The thinking session so far:\n${context.sessionContext}`);
  if (thread.length > 0) parts.push(`Perspectives so far:\n\n${thread.map((entry) => `[${entry.role.name}]\n${entry.text}`).join('\n\n')}`);
  parts.push(...extra);
  const messages: ModelMessage[] = [
    { role: 'system', text: role.systemPrompt },
    { role: 'user', text: parts.join('\n\n') },
  ];
  if (toolResults.length > 0) messages.push({ role: 'user', text: `Results of the tools you called:\n\n${toolResults.join('\n\n')}` });
  return messages;
}

/** Where a task stands at the start of a cycle: what it may still spend. */
export interface CycleBudget {
  /** Cycles done so far. */
  cycles: number;
  maxCycles: number;
  tokensLeft: number;
  msLeft: number;
  /** Tool calls left and allowed; absent when the task is offered no tools. */
  toolCalls?: { left: number; max: number };
}

/** A task cycle's instructions: work in cycles, the budget left, and what its earlier cycles said. */
export function taskCyclePrompt(budget: CycleBudget, gathered: readonly string[]): string[] {
  const tools = budget.toolCalls ? `; ${budget.toolCalls.left} of ${budget.toolCalls.max} tool calls left.` : '.';
  const budgetLine = `Budget: cycle ${budget.cycles + 1} of ${budget.maxCycles}; ${budget.tokensLeft} output tokens and ${budget.msLeft} ms left${tools}`;
  return [TASK_INSTRUCTIONS, budgetLine, ...earlierCycles(gathered)];
}

/** ThinkSuit's convergence: a budget ran out (`cut` says which); the best final answer from what was gathered. */
export function convergencePrompt(cut: string, gathered: readonly string[]): string[] {
  return [
    `Your budget ran out (${cut}). Give your best final answer now, from what you gathered so far. Do not ask for more cycles.`,
    ...earlierCycles(gathered),
  ];
}

function earlierCycles(gathered: readonly string[]): string[] {
  return gathered.map((text, index) => `Your cycle ${index + 1} said:\n${text}`);
}

/** Whether a task's reply asks for another cycle (its STATUS line says CONTINUE). */
export function asksToContinue(reply: string): boolean {
  return STATUS_LINE.exec(reply)?.[1].toUpperCase() === 'CONTINUE';
}

/** A reply without its STATUS lines; the reply as it was when nothing else is left. */
export function stripStatus(text: string): string {
  const stripped = text.replace(new RegExp(STATUS_LINE.source, 'gim'), '').trim();
  return stripped === '' ? text.trim() : stripped;
}

/** A tool call as the model and the thoughts name it: `name({"input":…})`, the input cut short. */
export function describeToolCall(call: Pick<ModelToolCall, 'name' | 'input'>): string {
  const input = JSON.stringify(call.input) ?? '{}';
  return `${call.name}(${shortened(input === '{}' ? '' : input, TOOL_INPUT_IN_DESCRIPTION)})`;
}

/** One tool's result as the next cycle reads it. */
export function toolResultForModel(call: Pick<ModelToolCall, 'name' | 'input'>, ok: boolean, text: string): string {
  return `[${describeToolCall(call)}] ${ok ? 'returned' : 'failed'}:\n${shortened(text, TOOL_RESULT_FOR_MODEL)}`;
}

/** The tool calls a cycle asked for that the task's tool budget (`cut`) left unrun, as the next cycle reads it. */
export function toolsNotRun(cut: string, names: readonly string[]): string {
  return `Not run (${cut} spent): ${names.join(', ')}.`;
}
