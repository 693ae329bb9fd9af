// The QA fields a `sequentialthinking` call may carry (the QA workflows): the tools the calling model has, what is being
// verified, the current step with the agent's own tool recommendations, the steps before and after it, and a QA
// workflow. Kept apart from thoughtInput.ts (whose lenient schema passes them as sent; it calls parseQaInput once) so the
// hot path of a plain thought stays untouched: no QA field sent, nothing here runs but a few property reads.
// Lenient like every other field (camelCase or snake_case, numbers as text); bounded, because steps are
// stored with the thought; each refusal names the field, the value and what to send.
import { MAX_WHOLE_NUMBER, NAME_PATTERN, isWholeNumberInRange } from './fieldRules';
import { sentValue } from './lenientSchema';
import { rawToolName, recallToolList, rememberToolList } from './toolListMemo';

/** A tool the calling model can use. Descriptions and tags are used for matching only, never stored. */
export interface ToolInfo {
  name: string;
  description?: string;
  tags?: string[];
}

export interface RecommendedTool {
  toolName: string;
  /** 0 to 1. */
  confidence: number;
  rationale: string;
  /** 1 is the first to try; several tools may share a priority. */
  priority: number;
  alternatives?: string[];
  suggestedInputs?: Record<string, unknown>;
}

export interface StepRecommendation {
  stepDescription: string;
  expectedOutcome: string;
  recommendedTools: RecommendedTool[];
  nextStepConditions: string[];
}

export interface QaInput {
  /** The tools the call says the model has; undefined when it sent no list (the server may know the editor's). */
  availableTools?: ToolInfo[];
  verificationTarget?: string;
  currentStep?: StepRecommendation;
  previousSteps?: StepRecommendation[];
  remainingSteps?: string[];
  /** A QA workflow (strategy) name, e.g. "qa_version_verification". */
  workflow?: string;
  /** Bounded handling the agent should hear about (a description cut for matching). */
  notes: string[];
}

/** Bounds: steps are stored with every thought; tool lists are matched on every call. */
export const QA_LIMITS = {
  availableTools: 512,
  toolName: 128,
  /** Longer descriptions are cut to this for matching (they are never stored). */
  toolDescription: 1024,
  tags: 16,
  text: 2000,
  rationale: 1000,
  recommendedTools: 20,
  alternatives: 10,
  alternative: 200,
  suggestedInputsJson: 4000,
  conditions: 20,
  condition: 500,
  steps: 50,
  /** currentStep, previousSteps and remainingSteps together, as stored (JSON): as much as one thought may hold. */
  storedSteps: 20_000,
} as const;

export class QaInputError extends Error {
  constructor(
    readonly field: string,
    readonly detail: string,
  ) {
    super(`Invalid ${field}: ${detail}.`);
    this.name = 'QaInputError';
  }
}

/** The QA fields, each under the names it may come as. */
type QaField = 'availableTools' | 'verificationTarget' | 'currentStep' | 'previousSteps' | 'remainingSteps' | 'workflow';

const ALIASES: Record<QaField, readonly string[]> = {
  availableTools: ['available_tools', 'available_client_tools', 'available_mcp_tools', 'availableClientTools', 'availableMcpTools'],
  verificationTarget: ['verification_target'],
  currentStep: ['current_step'],
  previousSteps: ['previous_steps'],
  remainingSteps: ['remaining_steps'],
  workflow: [],
};

const absent = (value: unknown) => value === undefined || value === null;

/** Every name a QA field may come under. */
const QA_KEYS: ReadonlySet<string> = new Set(Object.entries(ALIASES).flatMap(([field, aliases]) => [field, ...aliases]));

/** Whether the arguments carry any QA name at all: a thought's few keys are checked, not the many QA names. */
function hasQaKey(args: Record<string, unknown>): boolean {
  for (const key in args) if (QA_KEYS.has(key)) return true;
  return false;
}

/** The QA fields of parsed tool arguments, or undefined when the call carries none (the common case: cheap). */
export function parseQaInput(args: Record<string, unknown>, workflowNames: ReadonlySet<string>): QaInput | undefined {
  if (!hasQaKey(args)) return undefined;
  let qa: QaInput | undefined;
  const ensure = () => (qa ??= { notes: [] });
  for (const field of Object.keys(ALIASES) as QaField[]) {
    let key: string = field;
    // The lenient parse passes objects and lists as sent; a workflow or target it refused is read as sent here.
    let value = sentValue(args[field]);
    if (absent(value)) {
      for (const alias of ALIASES[field]) {
        if (!absent(args[alias])) {
          key = alias;
          value = args[alias];
          break;
        }
      }
    }
    if (absent(value)) continue;
    const target = ensure();
    switch (field) {
      case 'availableTools':
        target.availableTools = toolList(key, value, target.notes);
        break;
      case 'verificationTarget':
        target.verificationTarget = text(key, value, QA_LIMITS.text);
        break;
      case 'currentStep':
        target.currentStep = step(key, value);
        break;
      case 'previousSteps':
        target.previousSteps = list(key, value, QA_LIMITS.steps, 'step objects', (item, where) => step(where, item));
        break;
      case 'remainingSteps':
        target.remainingSteps = list(key, value, QA_LIMITS.steps, 'step descriptions', (item, where) =>
          text(where, stepText(item), QA_LIMITS.text),
        );
        break;
      case 'workflow': {
        const name = text(key, value, 64);
        if (!NAME_PATTERN.test(name) || !workflowNames.has(name)) {
          throw new QaInputError(key, `got ${JSON.stringify(name.slice(0, 64))}; expected one of ${[...workflowNames].join(', ')}`);
        }
        target.workflow = name;
        break;
      }
    }
  }
  if (qa) requireStoredStepsWithinBound(qa);
  return qa;
}

/** The steps are stored with every thought: together they may take no more than QA_LIMITS.storedSteps. */
function requireStoredStepsWithinBound(qa: QaInput): void {
  if (qa.currentStep === undefined && qa.previousSteps === undefined && qa.remainingSteps === undefined) return;
  const size = JSON.stringify([qa.currentStep, qa.previousSteps, qa.remainingSteps]).length;
  if (size <= QA_LIMITS.storedSteps) return;
  throw new QaInputError(
    'currentStep, previousSteps and remainingSteps',
    `together they take ${size} characters; expected at most ${QA_LIMITS.storedSteps} characters (as much as one thought), ` +
      'send the recent steps only, with shorter descriptions',
  );
}

/** A remaining step may be sent as text or as a step object (its description is kept). */
function stepText(item: unknown): unknown {
  if (item !== null && typeof item === 'object' && !Array.isArray(item)) {
    const record = item as Record<string, unknown>;
    return record.stepDescription ?? record.step_description ?? item;
  }
  return item;
}

function kind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (typeof value === 'string') return value.length > 40 ? `a string of ${value.length} characters` : JSON.stringify(value);
  if (typeof value === 'object') return 'an object';
  return String(value);
}

function text(field: string, value: unknown, max: number): string {
  if (typeof value !== 'string' || value.trim() === '') throw new QaInputError(field, `got ${kind(value)}; expected a non-empty string`);
  if (value.length > max) throw new QaInputError(field, `got ${value.length} characters; expected at most ${max}, shorten it`);
  return value;
}

function list<T>(field: string, value: unknown, max: number, what: string, item: (value: unknown, where: string) => T): T[] {
  if (!Array.isArray(value)) throw new QaInputError(field, `got ${kind(value)}; expected an array of ${what}`);
  if (value.length > max) throw new QaInputError(field, `got ${value.length} items; expected at most ${max}`);
  return value.map((entry, index) => item(entry, `${field}[${index}]`));
}

function member(record: Record<string, unknown>, camel: string, snake: string): { key: string; value: unknown } {
  if (!absent(record[camel])) return { key: camel, value: record[camel] };
  return { key: snake, value: record[snake] };
}

function object(field: string, value: unknown, what: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new QaInputError(field, `got ${kind(value)}; expected ${what}`);
  return value as Record<string, unknown>;
}

function toolList(field: string, value: unknown, notes: string[]): ToolInfo[] {
  if (!Array.isArray(value)) throw new QaInputError(field, `got ${kind(value)}; expected an array of tool names or {name, description}`);
  if (value.length > QA_LIMITS.availableTools) {
    throw new QaInputError(
      field,
      `got ${value.length} tools; expected at most ${QA_LIMITS.availableTools} (send the ones relevant to this task)`,
    );
  }
  // The same list as a recent call: its parse again, without checking 200 entries again.
  const recalled = recallToolList(value);
  if (recalled) {
    notes.push(...recalled.notes.map((note) => note.replace(/^[^:]*:/, `${field}:`)));
    return recalled.tools;
  }
  let cut = 0;
  const tools = value.map((entry, index): ToolInfo => {
    const where = `${field}[${index}]`;
    if (typeof entry === 'string') return { name: toolName(where, entry) };
    const record = object(where, entry, 'a tool name or {name, description}');
    const tool: ToolInfo = { name: toolName(`${where}.name`, rawToolName(record)) };
    const description = record.description;
    if (!absent(description)) {
      if (typeof description !== 'string') throw new QaInputError(`${where}.description`, `got ${kind(description)}; expected a string`);
      if (description.length > QA_LIMITS.toolDescription) cut++;
      tool.description = description.length > QA_LIMITS.toolDescription ? description.slice(0, QA_LIMITS.toolDescription) : description;
    }
    if (Array.isArray(record.tags))
      tool.tags = record.tags.filter((tag): tag is string => typeof tag === 'string').slice(0, QA_LIMITS.tags);
    return tool;
  });
  const listNotes =
    cut > 0
      ? [`${field}: ${cut} description(s) longer than ${QA_LIMITS.toolDescription} characters; only their start was used for matching.`]
      : [];
  notes.push(...listNotes);
  rememberToolList(value, tools, listNotes);
  return tools;
}

function toolName(field: string, value: unknown): string {
  const name = text(field, value, QA_LIMITS.toolName);
  return name.trim();
}

function step(field: string, value: unknown): StepRecommendation {
  const record = object(field, value, 'an object with stepDescription, expectedOutcome, recommendedTools and nextStepConditions');
  const description = member(record, 'stepDescription', 'step_description');
  const outcome = member(record, 'expectedOutcome', 'expected_outcome');
  const tools = member(record, 'recommendedTools', 'recommended_tools');
  const conditions = member(record, 'nextStepConditions', 'next_step_conditions');
  return {
    stepDescription: text(`${field}.${description.key}`, description.value, QA_LIMITS.text),
    expectedOutcome: absent(outcome.value) ? '' : text(`${field}.${outcome.key}`, outcome.value, QA_LIMITS.text),
    recommendedTools: absent(tools.value)
      ? []
      : list(`${field}.${tools.key}`, tools.value, QA_LIMITS.recommendedTools, 'tool recommendations', (item, where) =>
          recommendedTool(where, item),
        ),
    nextStepConditions: absent(conditions.value)
      ? []
      : list(`${field}.${conditions.key}`, conditions.value, QA_LIMITS.conditions, 'conditions as text', (item, where) =>
          text(where, item, QA_LIMITS.condition),
        ),
  };
}

function numberOf(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) return Number(value);
  return Number.NaN;
}

function recommendedTool(field: string, value: unknown): RecommendedTool {
  const record = object(field, value, 'an object with toolName, confidence, rationale and priority');
  const name = member(record, 'toolName', 'tool_name');
  const confidence = numberOf(record.confidence);
  if (!(confidence >= 0 && confidence <= 1)) {
    throw new QaInputError(`${field}.confidence`, `got ${kind(record.confidence)}; expected a number from 0 to 1 (for example 0.8)`);
  }
  const priority = numberOf(record.priority);
  // An order, so any whole number the schema advertises (1 and up) is one; beyond MAX_WHOLE_NUMBER JSON loses digits.
  if (!isWholeNumberInRange(priority, 1)) {
    throw new QaInputError(
      `${field}.priority`,
      `got ${kind(record.priority)}; expected a whole number from 1 (first to try) to ${MAX_WHOLE_NUMBER}`,
    );
  }
  const tool: RecommendedTool = {
    toolName: toolName(`${field}.${name.key}`, name.value),
    confidence,
    rationale: absent(record.rationale) ? '' : text(`${field}.rationale`, record.rationale, QA_LIMITS.rationale),
    priority,
  };
  if (!absent(record.alternatives)) {
    tool.alternatives = list(`${field}.alternatives`, record.alternatives, QA_LIMITS.alternatives, 'tool names', (item, where) =>
      text(where, item, QA_LIMITS.alternative),
    );
  }
  const inputs = member(record, 'suggestedInputs', 'suggested_inputs');
  if (!absent(inputs.value)) {
    const where = `${field}.${inputs.key}`;
    const object_ = object(where, inputs.value, 'an object of input names to values');
    let json: string | undefined;
    try {
      json = JSON.stringify(object_);
    } catch {
      json = undefined;
    }
    if (json === undefined || json.length > QA_LIMITS.suggestedInputsJson) {
      throw new QaInputError(where, `expected a JSON object of at most ${QA_LIMITS.suggestedInputsJson} characters`);
    }
    tool.suggestedInputs = JSON.parse(json) as Record<string, unknown>;
  }
  return tool;
}
