import path from 'node:path';
import { modelRefOf, type EpisodeRecord } from '../../protocol/index.js';
import { judgeVariants, readEvaluation, type JudgeInfo } from '../evaluation.js';
import { SOTOPIA_RUBRIC } from '../rubric/builtin.js';
import { rubricRef, type RubricRef } from '../rubric/rubric.js';
import type { RunDir } from '../run-dir.js';
import { alphaWithInterval, meanAbsoluteDifference, type AlphaInterval } from '../stats/krippendorff.js';

/**
 * Judge panels: the judges that scored the same episodes on the same rubric (same name and hash), with
 * the same visibility and view. Each panel is summarised apart — judges of different rubrics are never
 * averaged together. A unit of agreement is one seat of one episode; its values are the judges' scores.
 */

export interface PanelJudge {
  /** The judge variant key on the records (`openai:gpt-4 full`, …). */
  variant: string;
  info: JudgeInfo;
  seatsScored: number;
  errors: number;
  /** Mean score per dimension over the seats it scored. */
  means: Record<string, number | null>;
  /** Episodes in which a generator (a seat or the script writer) ran on the judge's own model. */
  selfEvaluated: number;
  episodes: number;
}

export interface DimensionAgreement {
  dimension: string;
  alpha: AlphaInterval;
  /** Mean absolute difference between two judges' scores of a seat, over every pair of judges. */
  mad: number | null;
}

export interface Panel {
  rubric: RubricRef;
  visibility: string;
  view: string;
  judges: PanelJudge[];
  /** Per dimension: the mean over seats of the judges' mean score of the seat. */
  panelMeans: Record<string, number | null>;
  /** Per dimension, when two or more judges scored the same seats (empty otherwise). */
  agreement: DimensionAgreement[];
}

const SOTOPIA_REF = rubricRef(SOTOPIA_RUBRIC);

const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);

/** The model names that generated an episode: every seat's and, in script mode, the writer's. */
function generatorModels(e: EpisodeRecord): Set<string> {
  const who = e.mode === 'script' && e.scriptWriter ? [e.scriptWriter] : e.seats;
  const out = new Set<string>();
  for (const w of who) {
    if (w.model) out.add(w.model);
    const ref = modelRefOf(w.policy);
    if (ref) out.add(ref.model);
  }
  return out;
}

/** The judge's own model name (`gpt-4` of `openai:gpt-4`). */
function judgeModel(info: JudgeInfo): string {
  return info.model ?? modelRefOf(info.spec)?.model ?? info.spec;
}

/** Every panel over the ok episodes of the runs, in a stable order (default rubric first). */
export function judgePanels(runs: readonly RunDir[], seed = 1): Panel[] {
  interface Acc {
    rubric: RubricRef;
    visibility: string;
    view: string;
    judges: Map<string, PanelJudge & { scores: Map<string, number[]> }>;
    /** dimension → unit → judge variant → score */
    units: Map<string, Map<string, Map<string, number>>>;
  }
  const panels = new Map<string, Acc>();
  for (const run of runs) {
    for (const { record } of run.episodes) {
      if (record.status !== 'ok') continue;
      const generators = generatorModels(record);
      for (const [variant, j] of judgeVariants(readEvaluation(record.evaluation))) {
        const rubric = j.judge.rubric ?? SOTOPIA_REF;
        const view = j.judge.view ?? 'parley';
        const key = JSON.stringify([rubric.name, rubric.hash, j.judge.visibility, view]);
        let p = panels.get(key);
        if (!p) panels.set(key, (p = { rubric, visibility: j.judge.visibility, view, judges: new Map(), units: new Map() }));
        let judge = p.judges.get(variant);
        if (!judge) p.judges.set(variant, (judge = { variant, info: j.judge, seatsScored: 0, errors: 0, means: {}, selfEvaluated: 0, episodes: 0, scores: new Map() }));
        judge.episodes++;
        if (generators.has(judgeModel(j.judge))) judge.selfEvaluated++;
        for (const [seat, s] of Object.entries(j.seats)) {
          if (!s.ok) {
            judge.errors++;
            continue;
          }
          judge.seatsScored++;
          const unit = `${path.resolve(run.dir)}\u0000${record.episodeId}\u0000${seat}`;
          for (const d of rubric.dimensions) {
            const v = s.scores[d.name]?.score;
            if (v === undefined) continue;
            let mine = judge.scores.get(d.name);
            if (!mine) judge.scores.set(d.name, (mine = []));
            mine.push(v);
            let byUnit = p.units.get(d.name);
            if (!byUnit) p.units.set(d.name, (byUnit = new Map()));
            let values = byUnit.get(unit);
            if (!values) byUnit.set(unit, (values = new Map()));
            values.set(variant, v);
          }
        }
      }
    }
  }
  const out: Panel[] = [];
  for (const p of panels.values()) {
    const judges = [...p.judges.values()].sort((a, b) => a.variant.localeCompare(b.variant)).map(({ scores, ...j }) => ({
      ...j,
      means: Object.fromEntries(p.rubric.dimensions.map((d) => [d.name, mean(scores.get(d.name) ?? [])])),
    }));
    const panelMeans: Record<string, number | null> = {};
    const agreement: DimensionAgreement[] = [];
    for (const d of p.rubric.dimensions) {
      const units = [...(p.units.get(d.name)?.values() ?? [])].map((m) => [...m.values()]);
      panelMeans[d.name] = mean(units.map((u) => mean(u)!));
      // Agreement needs seats two judges both scored: judges of different runs (a combined report) share none.
      if (judges.length >= 2 && units.some((u) => u.length >= 2)) agreement.push({ dimension: d.name, alpha: alphaWithInterval(units, seed), mad: meanAbsoluteDifference(units) });
    }
    out.push({ rubric: p.rubric, visibility: p.visibility, view: p.view, judges, panelMeans, agreement });
  }
  const isDefault = (p: Panel) => (p.rubric.name === SOTOPIA_REF.name && p.rubric.hash === SOTOPIA_REF.hash ? 0 : 1);
  return out.sort((a, b) => isDefault(a) - isDefault(b) || a.rubric.name.localeCompare(b.rubric.name) || a.visibility.localeCompare(b.visibility) || a.view.localeCompare(b.view));
}
