// The Insights section of the exports, worded once: a session's insights as label/value facts (plain strings, escaped
// by each format like the summary facts).
import { sessionInsights } from '../engine/insights/sessionInsights';
import type { SessionSnapshot } from '../engine/model';
import type { SummaryFact } from './sessionFacts';
import { duration, percent } from '../engine/browserSafe/insightsFormat';

export function insightFacts(snapshot: SessionSnapshot): SummaryFact[] {
  const insights = sessionInsights(snapshot);
  const facts: SummaryFact[] = [
    { label: 'Revisions', value: `${insights.revisions} (${percent(insights.revisionRate)} of thoughts)` },
    {
      label: 'Branches',
      value: `${insights.branches} (${insights.branchThoughts} thought${insights.branchThoughts === 1 ? '' : 's'} on branches, ${percent(insights.branchRate)})`,
    },
  ];
  if (insights.stagesVisited.length > 0) {
    facts.push({
      label: 'Stages visited',
      value: `${insights.stagesVisited.length} (${insights.loops} loop${insights.loops === 1 ? '' : 's'} back to an earlier stage): ${insights.stagesVisited.join(', ')}`,
    });
  }
  if (insights.timeBetweenThoughts) {
    facts.push({
      label: 'Time between thoughts',
      value: `median ${duration(insights.timeBetweenThoughts.medianMs)}, longest ${duration(insights.timeBetweenThoughts.maxMs)}`,
    });
  }
  const { feedback } = insights;
  if (feedback.given > 0)
    facts.push({ label: 'Feedback', value: `${feedback.given} given, ${feedback.delivered} delivered, ${feedback.applied} applied` });
  if (insights.tokens) {
    const { input, output, thoughts, estimated } = insights.tokens;
    facts.push({
      label: 'Deliberation tokens',
      value: `${input} in, ${output} out over ${thoughts} thought${thoughts === 1 ? '' : 's'}${estimated ? ' (partly estimated)' : ''}`,
    });
  }
  return facts;
}
