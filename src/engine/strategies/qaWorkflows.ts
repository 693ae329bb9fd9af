// The QA workflows by strategy name, and the one a verification target suggests.
import { qaCompatibilityCheckWorkflow } from './qaCompatibilityCheck';
import { qaSyntaxValidationWorkflow } from './qaSyntaxValidation';
import { qaTestWorkflow } from './qaTestWorkflow';
import { qaVersionVerificationWorkflow } from './qaVersionVerification';
import type { QaWorkflow } from './qaWorkflow';

/** In the order a target is matched: the most specific first. */
export const QA_WORKFLOWS: readonly QaWorkflow[] = [
  qaVersionVerificationWorkflow,
  qaSyntaxValidationWorkflow,
  qaCompatibilityCheckWorkflow,
  qaTestWorkflow,
];

const byName = new Map(QA_WORKFLOWS.map((workflow) => [workflow.strategy.name, workflow]));

export const QA_WORKFLOW_NAMES: ReadonlySet<string> = new Set(byName.keys());

export function findQaWorkflow(name: string | undefined): QaWorkflow | undefined {
  return name === undefined ? undefined : byName.get(name);
}

/** The workflow whose words the target uses, if any. */
export function suggestQaWorkflow(target: string | undefined): QaWorkflow | undefined {
  if (target === undefined) return undefined;
  return QA_WORKFLOWS.find((workflow) => workflow.targetPattern.test(target));
}
