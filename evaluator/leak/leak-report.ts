import path from 'node:path';
import type { EpisodeMetrics } from '../metrics/episode-metrics.js';
import { runMetrics } from '../metrics/run-metrics.js';
import { runProtocol } from '../run-protocol.js';
import { mdText } from '../report/markdown-text.js';
import type { RunDir } from '../run-dir.js';
import { terminalSafe } from '../../text/terminal.js';
import { BOOTSTRAP_RESAMPLES } from '../stats/summary.js';
import { loadPublished } from '../paper/published.js';
import { publishedAdvantages, publishedAdvantageSentence } from './leak-published.js';
import { LEAKED_MODES, leakEffects, type LeakEffect } from './leak-effect.js';
import { leakSectionLines, leakSentence, type LeakCaveats } from './leak-words.js';

/** The leak effect of a pair of runs, its caveats, and the report section. */
export interface LeakReport {
  effects: LeakEffect[];
  caveats: LeakCaveats;
  /** The section for report.md. */
  markdown: string[];
  /** The sentences, for the terminal. */
  sentences: string[];
}

/** Which generators a run sent the judge-only text to (run.json's resolved protocol, else its config). */
function leakTargets(run: RunDir): string[] | null {
  const fromProtocol = run.run?.protocol?.leakJudgeOnly;
  if (fromProtocol) return [...fromProtocol];
  const fromConfig = run.run?.config.leakJudgeOnly;
  return fromConfig ? [...fromConfig] : null;
}

/** The judges (spec and view) that scored a run's MutualFriends episodes. */
function judgesOf(metrics: readonly EpisodeMetrics[]): string[] {
  const out = new Set<string>();
  for (const m of metrics) if (m.kind === 'mutual_friends' && m.judge) out.add(`${m.judge.info.spec} (${m.judge.info.view ?? 'parley'} view, prompt ${m.judge.info.promptVersion})`);
  return [...out].sort();
}

/** What makes the pair of runs less than a clean leak comparison (raw text: escaped where it is shown). */
export function leakCaveats(leaky: RunDir, corrected: RunDir, leakyMetrics: readonly EpisodeMetrics[], correctedMetrics: readonly EpisodeMetrics[]): LeakCaveats {
  const caveats: LeakCaveats = { notALeakComparison: [], other: [] };
  const sent = leakTargets(leaky);
  const closed = leakTargets(corrected);
  for (const mode of LEAKED_MODES) {
    const who = mode === 'script' ? 'the script writer' : 'the mindreaders';
    if (sent && !sent.includes(mode)) caveats.notALeakComparison.push({ mode, why: `the leaky run did not send the answer to ${who} (leakJudgeOnly: [${sent.join(', ')}]).` });
    else if (closed?.includes(mode)) caveats.notALeakComparison.push({ mode, why: `the corrected run also sent the answer to ${who} (leakJudgeOnly: [${closed.join(', ')}]).` });
  }
  if (!sent) caveats.other.push('the leaky run does not record which generators got the judge-only text (run.json has no protocol).');
  if (runProtocol(leaky) !== runProtocol(corrected)) caveats.other.push('the two runs follow different protocols, so MutualFriends success is read by different rules.');
  const [jl, jc] = [judgesOf(leakyMetrics), judgesOf(correctedMetrics)];
  if (jl.length && jc.length && JSON.stringify(jl) !== JSON.stringify(jc)) {
    caveats.other.push(`the two runs were judged differently (${jl.join(', ')} against ${jc.join(', ')}): goal differences mix the leak with the judge.`);
  }
  const instances = (ms: readonly EpisodeMetrics[]) => new Set(ms.filter((m) => m.kind === 'mutual_friends' && m.status === 'ok').map((m) => `${m.scenarioId}\u0000${m.pairId}`));
  const [il, ic] = [instances(leakyMetrics), instances(correctedMetrics)];
  const shared = [...il].filter((k) => ic.has(k)).length;
  if (shared !== il.size || shared !== ic.size) {
    caveats.other.push(`the two runs cover different MutualFriends instances (${il.size} in the leaky run, ${ic.size} in the corrected one, ${shared} in both): part of any difference is the instances.`);
  }
  return caveats;
}

/** The paper's printed MutualFriends advantages for the leaky run's models; none when the data file cannot be read (the "Beside the paper" section reports that). */
function paperAdvantages(leakyMetrics: readonly EpisodeMetrics[]): string[] {
  try {
    return publishedAdvantages(leakyMetrics, loadPublished()).map(publishedAdvantageSentence);
  } catch {
    return [];
  }
}

/** The leak effect of `leaky` against `corrected`, in numbers and in words. */
export function leakReport(leaky: RunDir, corrected: RunDir, seed = 1): LeakReport {
  const lm = runMetrics(leaky);
  const cm = runMetrics(corrected);
  const effects = leakEffects(lm, cm, seed);
  const caveats = leakCaveats(leaky, corrected, lm, cm);
  const name = (r: RunDir) => mdText(path.basename(path.resolve(r.dir)));
  const markdown = leakSectionLines(effects, caveats, `Run ${name(leaky)}`, `run ${name(corrected)}`, BOOTSTRAP_RESAMPLES);
  const paper = runProtocol(leaky).scoring.besideThePaper ? paperAdvantages(lm) : [];
  if (paper.length) markdown.splice(markdown.length - 1, 0, ...paper.map((s) => `- ${mdText(s)}`));
  const sentences = [
    ...caveats.notALeakComparison.map((c) => terminalSafe(`not a leak comparison for ${c.mode}: ${c.why}`)),
    ...caveats.other.map((o) => terminalSafe(`caution: ${o}`)),
    ...effects.map(leakSentence),
  ];
  return { effects, caveats, markdown, sentences };
}
