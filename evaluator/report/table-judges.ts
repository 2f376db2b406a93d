import { JUDGE_VIEW_FACTS } from '../../simulation/index.js';
import { isSotopia } from '../rubric/builtin.js';
import type { EpisodeMetrics, JudgementView } from '../metrics/episode-metrics.js';
import { mdCode, mdText } from './markdown-text.js';

/**
 * The sentence under a score table's heading that names whose scores it shows: the judges (spec,
 * visibility, view) whose judgements fill it and on how many episodes each, and the rubric. A table that
 * does not say its judge cannot be compared with another report's.
 */
export function tableJudgesLine(metrics: readonly EpisodeMetrics[], rubric: { name: string; hash: string } | null): string {
  const counts = new Map<string, number>();
  for (const m of metrics) {
    const j: JudgementView | null | undefined = rubric === null ? (m.judge && isSotopia(m.judge.info.rubric) ? m.judge : null) : m.otherRubrics.find((x) => x.info.rubric?.name === rubric.name && x.info.rubric.hash === rubric.hash);
    if (!j) continue;
    const tag = j.info.view ? JUDGE_VIEW_FACTS[j.info.view].tag : null;
    const who = `${mdCode(j.info.spec)} (${j.info.visibility}${tag ? `, ${tag}` : ''})`;
    counts.set(who, (counts.get(who) ?? 0) + 1);
  }
  const judges = [...counts].map(([who, n]) => `${who} on ${n} episode${n === 1 ? '' : 's'}`).join(', ');
  const name = rubric === null ? 'sotopia (SOTOPIA-EVAL)' : `${mdText(rubric.name)} \`${rubric.hash.slice(0, 12)}\``;
  return `Judge: ${judges || 'none'}; rubric ${name}.`;
}

/** The same sentence for a table of each episode's main judgement, whatever its rubric: judges and rubrics both named. */
export function mainJudgesLine(metrics: readonly EpisodeMetrics[]): string {
  const counts = new Map<string, number>();
  for (const m of metrics) {
    if (!m.judge || m.status !== 'ok') continue;
    const r = m.judge.info.rubric;
    const tag = m.judge.info.view ? JUDGE_VIEW_FACTS[m.judge.info.view].tag : null;
    const who = `${mdCode(m.judge.info.spec)} (${m.judge.info.visibility}${tag ? `, ${tag}` : ''}; rubric ${isSotopia(r) ? 'sotopia' : mdText(r!.name)})`;
    counts.set(who, (counts.get(who) ?? 0) + 1);
  }
  return `Judge: ${[...counts].map(([who, n]) => `${who} on ${n} episode${n === 1 ? '' : 's'}`).join(', ') || 'none'}.`;
}
