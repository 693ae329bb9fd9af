// How a plan's role outputs become one result (ThinkSuit's resultStrategy): the last output, all of them
// concatenated, each labelled with its role, or formatted as Markdown with a heading per role.
import type { CallStatus } from '../engine/browserSafe/callStatuses';
import type { ResultStrategy } from './plans';

export interface RoleOutput {
  role: string;
  title: string;
  text: string;
  status: CallStatus;
}

export function combineResults(strategy: ResultStrategy, outputs: readonly RoleOutput[]): string {
  const ok = outputs.filter((output) => output.status === 'ok');
  switch (strategy) {
    case 'last':
      return ok[ok.length - 1]?.text ?? '';
    case 'concat':
      return ok.map((output) => output.text).join('\n\n');
    case 'label':
      return ok.map((output) => `[${output.role}]\n${output.text}`).join('\n\n');
    case 'formatted': {
      const sections = outputs.map((output) =>
        output.status === 'ok' ? `## ${output.title}\n\n${output.text}` : `## ${output.title}\n\n_(${output.status}: no contribution)_`,
      );
      return sections.join('\n\n');
    }
  }
}
