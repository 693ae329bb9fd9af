// Which tools a deliberation's task steps are offered: the plan's `tools` names matched exactly against the tool
// gateway's list. Unknown names are reported, never guessed; our own tools are refused (a deliberation calling
// deliberate would recurse); and a model gateway without native tool calling gets none, with the reason.
import type { ModelGateway, ModelTool } from '../engine/modelGateway';
import { isOwnToolName, type ToolGateway } from '../engine/toolGateway';
import type { ResolvedPlan } from './plans';

export interface ToolSelection {
  /** Names the plan asked for, in order, without duplicates. */
  requested: string[];
  /** The tools the model is offered, by name. */
  offered: Map<string, ModelTool>;
  /** Requested names the tool gateway does not have. */
  unknown: string[];
  /** Requested names refused because they are our own tools. */
  refused: string[];
  /** Why no tools are offered although some were asked for (no tool gateway, no native tool calling). */
  note?: string;
}

export function selectTools(plan: ResolvedPlan, model: ModelGateway, tools: ToolGateway | undefined): ToolSelection {
  const requested = [...new Set(plan.steps.flatMap((step) => step.tools))];
  const selection: ToolSelection = { requested, offered: new Map(), unknown: [], refused: [] };
  if (requested.length === 0) return selection;
  selection.refused = requested.filter(isOwnToolName);
  const wanted = requested.filter((name) => !isOwnToolName(name));
  if (!tools) {
    selection.unknown = wanted;
    selection.note = 'no tools are available to deliberations here (the host gave no tool gateway), so task steps ran without tools';
    return selection;
  }
  const available = new Map(
    tools
      .tools()
      .filter((tool) => !isOwnToolName(tool.name))
      .map((tool) => [tool.name, tool] as const),
  );
  selection.unknown = wanted.filter((name) => !available.has(name));
  if (!model.toolCalling) {
    selection.note = `the model (${model.description}) cannot be offered tools natively, so task steps ran without tools`;
    return selection;
  }
  for (const name of wanted) {
    const tool = available.get(name);
    if (tool) selection.offered.set(name, tool);
  }
  return selection;
}

/** The selection for the reply, in words. */
export function describeSelection(selection: ToolSelection, tools: ToolGateway | undefined): string[] {
  const lines: string[] = [];
  if (selection.unknown.length > 0) {
    const known = tools
      ? tools
          .tools()
          .filter((tool) => !isOwnToolName(tool.name))
          .map((tool) => tool.name)
      : [];
    lines.push(
      `unknown tools ${selection.unknown.map((name) => `"${name}"`).join(', ')} (available: ${known.length > 0 ? known.join(', ') : 'none'})`,
    );
  }
  if (selection.refused.length > 0)
    lines.push(
      `refused ${selection.refused.map((name) => `"${name}"`).join(', ')}: a deliberation never calls Thought Explorer's own tools`,
    );
  if (selection.note) lines.push(selection.note);
  return lines;
}
