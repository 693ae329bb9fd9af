// The Insights section of the exports, worded once: a session's insights as label/value facts (plain strings, escaped
// by each format like the summary facts).
import { sessionInsights } from '../engine/insights/sessionInsights';
import type { SessionSnapshot } from '../engine/model';
import type { SummaryFact } from './sessionFacts';

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

export function percent(rate: number): string {
  return `${Math.round(rate * 1000) / 10}%`;
}

/** 950 ms, 12 s, 3 min 5 s, 2 h 4 min. */
export function duration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min${seconds % 60 > 0 ? ` ${seconds % 60} s` : ''}`;
  return `${Math.floor(minutes / 60)} h${minutes % 60 > 0 ? ` ${minutes % 60} min` : ''}`;
}
