// What a `@thinking` chat request asks for: its slash command and prompt turned into a deliberate request, a strategy
// session to start, a session to resume, or a usage line. Its only use of `vscode` is `l10n.t` for the answers a
// person reads (unit-tested with the stub, which fills placeholders as VS Code does).
//
//   /hats [--full] <problem>                       six hats, `auto` routing unless --full
//   /plan <direct|sequential|parallel|task> [--roles a,b] [--tools x,y] <problem>
//   /strategy <name> <problem>                     a sequential-thinking session in that strategy
//   /resume [session]                              where a session stands and how to go on
//   <question>                                     the default plan (setting; `auto` unless changed)
import * as vscode from 'vscode';
import type { RequestBudgets } from '../deliberation/budgets';
import type { NamedPlan } from '../deliberation/namedPlans';
import { PLAN_KINDS, isPlanKind } from '../engine/browserSafe/planKinds';
import { findStrategy, strategyNames } from '../engine/strategies/catalog';

export type ChatCommand =
  | { kind: 'deliberate'; input: Record<string, unknown>; label: string }
  | { kind: 'strategy'; strategy: string; problem: string }
  | { kind: 'resume'; sessionId?: string }
  | { kind: 'usage'; message: string };

export interface ChatDefaults {
  defaultPlan: NamedPlan;
  budgets: RequestBudgets;
}

/** The commands and what each does, in the display language (read when answered, after the bundle has loaded). */
export function chatUsage(): string {
  return [
    vscode.l10n.t('`@thinking <question>` deliberates with the default plan (thinking hats chosen by complexity).'),
    vscode.l10n.t('`/hats [--full] <problem>` six thinking hats; `auto` routing picks 1, 2, 3 or all 6 unless `--full`.'),
    vscode.l10n.t(
      '`/plan <{0}> [--roles critical,creative] [--tools toolA,toolB] <problem>` a plan of your choice; `--tools` lets a task call VS Code tools.',
      PLAN_KINDS.join('|'),
    ),
    vscode.l10n.t('`/strategy <name> <problem>` starts a sequential-thinking session in a reasoning strategy.'),
    vscode.l10n.t('`/resume [session]` shows where a session stands and how to go on.'),
  ].join('\n\n');
}

export function parseChatCommand(command: string | undefined, prompt: string, defaults: ChatDefaults): ChatCommand {
  const words = prompt.trim();
  const budgets = Object.keys(defaults.budgets).length > 0 ? { budgets: { ...defaults.budgets } } : {};
  switch (command) {
    case undefined:
    case '': {
      if (words === '') return { kind: 'usage', message: `${vscode.l10n.t('Ask a question or name a command.')}\n\n${chatUsage()}` };
      return { kind: 'deliberate', input: { problem: words, plan: defaults.defaultPlan, ...budgets }, label: defaults.defaultPlan };
    }
    case 'hats': {
      const { flags, rest } = takeFlags(words, ['full']);
      if (rest === '')
        return {
          kind: 'usage',
          message: vscode.l10n.t(
            'Give the problem after `/hats`, e.g. `/hats Should we split the monolith?` (add `--full` for all six hats).',
          ),
        };
      const plan = flags.full !== undefined ? 'hats' : 'auto';
      return {
        kind: 'deliberate',
        input: { problem: rest, plan, ...budgets },
        label: plan === 'hats' ? vscode.l10n.t('six hats') : vscode.l10n.t('hats (auto routing)'),
      };
    }
    case 'plan': {
      const [kind, ...others] = words.split(/\s+/);
      if (!isPlanKind(kind)) {
        return {
          kind: 'usage',
          message: kind
            ? vscode.l10n.t('Name the plan first: `/plan <{0}> <problem>` (got "{1}").', PLAN_KINDS.join('|'), kind)
            : vscode.l10n.t('Name the plan first: `/plan <{0}> <problem>`.', PLAN_KINDS.join('|')),
        };
      }
      const { flags, rest } = takeFlags(others.join(' '), ['roles', 'tools']);
      if (rest === '') return { kind: 'usage', message: vscode.l10n.t('Give the problem after `/plan {0}`.', kind) };
      const roles = list(flags.roles);
      const tools = list(flags.tools);
      if (tools.length > 0 && kind !== 'task')
        return { kind: 'usage', message: vscode.l10n.t('`--tools` works with `/plan task` only: tools reach task steps.') };
      if (kind === 'task' && tools.length > 0) {
        // Tools need a plan object: the named task plan takes no tool list.
        const plan = { strategy: 'task', role: roles[0] ?? 'factual', tools };
        return {
          kind: 'deliberate',
          input: { problem: rest, plan, ...budgets },
          label: vscode.l10n.t('task with tools {0}', tools.join(', ')),
        };
      }
      return { kind: 'deliberate', input: { problem: rest, plan: kind, ...(roles.length > 0 ? { roles } : {}), ...budgets }, label: kind! };
    }
    case 'strategy': {
      const [name, ...others] = words.split(/\s+/);
      const problem = others.join(' ').trim();
      if (!name || !findStrategy(name)) {
        return {
          kind: 'usage',
          message: name
            ? vscode.l10n.t(
                'Name a strategy first: `/strategy <name> <problem>` (got "{0}"). Strategies: {1}.',
                name,
                strategyNames().join(', '),
              )
            : vscode.l10n.t('Name a strategy first: `/strategy <name> <problem>`. Strategies: {0}.', strategyNames().join(', ')),
        };
      }
      if (problem === '') return { kind: 'usage', message: vscode.l10n.t('Give the problem after `/strategy {0}`.', name) };
      return { kind: 'strategy', strategy: name, problem };
    }
    case 'resume':
      return { kind: 'resume', ...(words !== '' ? { sessionId: words.split(/\s+/)[0] } : {}) };
    default:
      return { kind: 'usage', message: `${vscode.l10n.t('Unknown command /{0}.', command)}\n\n${chatUsage()}` };
  }
}

/** Pulls `--name value` (or a bare `--name`) flags out of the text; the rest is the problem. */
function takeFlags(text: string, names: readonly string[]): { flags: Record<string, string | undefined>; rest: string } {
  const flags: Record<string, string | undefined> = {};
  const kept: string[] = [];
  const tokens = text.split(/\s+/).filter((token) => token !== '');
  for (let index = 0; index < tokens.length; index++) {
    const match = /^--([a-z-]+)$/.exec(tokens[index]);
    if (match && names.includes(match[1])) {
      const takesValue = match[1] !== 'full';
      flags[match[1]] = takesValue ? (tokens[++index] ?? '') : '';
      continue;
    }
    kept.push(tokens[index]);
  }
  return { flags, rest: kept.join(' ') };
}

function list(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}
