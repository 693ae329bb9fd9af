// Strategy `deliberation`: what the deliberate tool records. Each stage is a role (the six thinking hats, a custom
// role), framed by the opening thought and closed by the result. Plans order roles freely, so every role may follow
// every other; the tool names each thought's stage, so the flow never has to guess.
import { finalResponseStage } from './transitionTable';
import type { StageDefinition, StrategyDefinition } from './types';

export const DELIBERATION_STRATEGY = 'deliberation';
export const FRAMING_STAGE = 'framing';
export const CUSTOM_ROLE_STAGE = 'custom_role';
/** A task step's tool call and its result (the role that asked is in the thought's role). */
export const TOOL_CALL_STAGE = 'tool_call';

const roleStages: StageDefinition[] = [
  {
    name: 'factual',
    purpose: 'state the facts and what is missing',
    write: 'Facts, figures and the information still needed, without opinion.',
  },
  {
    name: 'emotional',
    purpose: 'voice feelings and intuitions',
    write: 'Gut reactions, feelings and intuitions, stated without justification.',
  },
  { name: 'critical', purpose: 'find risks and weaknesses', write: 'Risks, flaws and reasons for caution, each with its cause.' },
  { name: 'optimistic', purpose: 'find benefits and value', write: 'Benefits, opportunities and why it could work.' },
  { name: 'creative', purpose: 'propose alternatives and new ideas', write: 'New ideas, alternatives and provocations.' },
  {
    name: CUSTOM_ROLE_STAGE,
    purpose: 'speak as a custom role',
    write: "The custom role's contribution (its name is in the thought's role).",
  },
  { name: 'synthesis', purpose: 'integrate the perspectives', write: 'An integrated conclusion that weighs the perspectives before it.' },
  { name: TOOL_CALL_STAGE, purpose: 'call a tool for a task step', write: 'The tool, its input and a summary of its result.' },
];

const stages: StageDefinition[] = [
  {
    name: FRAMING_STAGE,
    purpose: 'frame the problem and the plan',
    write: 'The problem as posed and the plan that will deliberate on it.',
  },
  ...roleStages,
  finalResponseStage,
];

const roleNames = roleStages.map((stage) => stage.name);
const transitions: Record<string, readonly string[]> = {
  [FRAMING_STAGE]: [...roleNames, finalResponseStage.name],
  // A finished deliberation may be followed by another one in the same session.
  [finalResponseStage.name]: [FRAMING_STAGE],
};
for (const role of roleNames) transitions[role] = [...roleNames.filter((other) => other !== role), finalResponseStage.name, FRAMING_STAGE];

export const deliberationStrategy: StrategyDefinition = {
  name: DELIBERATION_STRATEGY,
  title: 'Deliberation (roles and thinking hats)',
  description: 'Recorded by the deliberate tool: each thought is one role of a plan (a thinking hat or a custom role) run on a model.',
  stages,
  transitions,
  traits: { usesTools: true, revision: false, branching: true, multiplePaths: true, stateTracking: false, verification: true },
  typicalLength: 8,
};
