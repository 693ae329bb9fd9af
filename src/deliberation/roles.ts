// Roles a plan can run: the six thinking hats (each with a system prompt saying what it does and what it leaves to
// the others) and custom roles the caller defines with {name, instructions}.
import { CUSTOM_ROLE_STAGE } from '../engine/strategies/deliberation';

export interface Role {
  name: string;
  /** Human title, e.g. "Critical (black hat)". */
  title: string;
  /** The hat colour for hats; undefined for custom roles. */
  hat?: 'white' | 'red' | 'black' | 'yellow' | 'green' | 'blue';
  /** The deliberation stage its thoughts are recorded in. */
  stage: string;
  systemPrompt: string;
}

export interface CustomRoleInput {
  name: string;
  instructions: string;
}

const COMMON =
  'You are one role in a structured deliberation. Other roles cover the other perspectives, so stay strictly in yours. ' +
  'Be concrete and brief (a few short paragraphs or a list). Do not announce your role or repeat the problem.';

const HATS: readonly Role[] = [
  {
    name: 'factual',
    title: 'Factual (white hat)',
    hat: 'white',
    stage: 'factual',
    systemPrompt:
      `${COMMON}\nYour role: the factual white hat. State the facts, figures and known constraints that bear on the problem, ` +
      'say how certain each is, and list the information that is missing and how to get it. ' +
      'Do not give opinions, feelings, judgements of good or bad, or recommendations.',
  },
  {
    name: 'emotional',
    title: 'Emotional (red hat)',
    hat: 'red',
    stage: 'emotional',
    systemPrompt:
      `${COMMON}\nYour role: the emotional red hat. Give the gut reactions, feelings, hunches and intuitions the problem ` +
      'raises, for the people involved as well as your own, without justifying them. ' +
      "Do not argue, analyse evidence, or weigh pros and cons: that is the other hats' work.",
  },
  {
    name: 'critical',
    title: 'Critical (black hat)',
    hat: 'black',
    stage: 'critical',
    systemPrompt:
      `${COMMON}\nYour role: the critical black hat. Find the risks, weaknesses, failure modes, hidden costs and reasons ` +
      'for caution, each with why it matters and how likely it is. ' +
      'Do not propose new ideas, praise the proposal, or make the final decision.',
  },
  {
    name: 'optimistic',
    title: 'Optimistic (yellow hat)',
    hat: 'yellow',
    stage: 'optimistic',
    systemPrompt:
      `${COMMON}\nYour role: the optimistic yellow hat. Find the benefits, the value, the opportunities and the reasons ` +
      'it could work, with the conditions under which they hold. ' +
      'Do not list risks or objections, and do not invent unrelated alternatives.',
  },
  {
    name: 'creative',
    title: 'Creative (green hat)',
    hat: 'green',
    stage: 'creative',
    systemPrompt:
      `${COMMON}\nYour role: the creative green hat. Propose alternatives, new ideas, reframings and provocations, ` +
      'including unusual ones; say briefly what each would change. ' +
      'Do not judge or rank the ideas and do not dwell on why they might fail.',
  },
  {
    name: 'synthesis',
    title: 'Synthesis (blue hat)',
    hat: 'blue',
    stage: 'synthesis',
    systemPrompt:
      `${COMMON}\nYour role: the synthesis blue hat. Integrate what the other perspectives said (when given) into one ` +
      'conclusion: weigh them, resolve conflicts, and end with a clear answer or recommendation and the next steps. ' +
      'Do not add new facts or new ideas of your own, and do not simply repeat each perspective.',
  },
];

const byName = new Map(HATS.map((role) => [role.name, role]));

/** Names of the six hats, in the order of a full sequence. */
export const HAT_NAMES: readonly string[] = HATS.map((role) => role.name);

/** Custom role names become branch ids, stages' labels and file-safe names: a small alphabet. */
export const ROLE_NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_-]{0,31}$/;
export const MAX_ROLE_INSTRUCTIONS = 4000;

export function hatRoles(): readonly Role[] {
  return HATS;
}

export function findHat(name: string): Role | undefined {
  return byName.get(name);
}

export function customRole(input: CustomRoleInput): Role {
  return {
    name: input.name,
    title: input.name,
    stage: CUSTOM_ROLE_STAGE,
    systemPrompt: `${COMMON}\nYour role: "${input.name}". Follow these instructions for the role:\n${input.instructions}`,
  };
}

/** The roles a plan may name: the hats plus the caller's custom roles (a custom role may not reuse a hat's name). */
export class RoleBook {
  private readonly custom = new Map<string, Role>();

  constructor(customRoles: readonly CustomRoleInput[] = []) {
    for (const input of customRoles) this.custom.set(input.name, customRole(input));
  }

  find(name: string): Role | undefined {
    return byName.get(name) ?? this.custom.get(name);
  }

  names(): string[] {
    return [...HAT_NAMES, ...this.custom.keys()];
  }

  /** The "expected" part of an unknown-role error. */
  describeValid(): string {
    const custom = [...this.custom.keys()];
    return `one of the hats ${HAT_NAMES.join(', ')}${custom.length > 0 ? ` or the custom roles ${custom.join(', ')}` : ''}, or define a custom role in roles as {name, instructions}`;
  }
}
