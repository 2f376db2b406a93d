import { wilson } from '../evaluator/stats/wilson.js';
import { summarize } from '../evaluator/stats/summary.js';
import type { ProbeRecord } from './probe-record.js';

/** One cell of the belief chart: a probe's scores of one arm (mode, or a fork's reveal) at one turn. */
export interface AccuracyCell {
  probe: string;
  scorer: ProbeRecord['scorer'];
  arm: string;
  turn: number;
  /** Scored answers. */
  n: number;
  /** Answers not scored (failed calls, unreadable replies, no judge). */
  unscored: number;
  /** Share correct (exact, yes/no), mean absolute error (numeric) or mean judge score; with a 95% interval. */
  value: number | null;
  lo: number | null;
  hi: number | null;
}

/** The arm a probe line belongs to: its mode, marked when its episode was a fork with a reveal. */
export const armOf = (r: ProbeRecord): string => (r.reveal?.length ? `${r.mode} + reveal` : r.mode);

/**
 * Belief accuracy against turn per arm: proportions (exact, yes/no) with Wilson intervals, means (numeric
 * error, judge score) with seeded bootstrap intervals. Cells are ordered by probe, arm, turn.
 */
export function accuracyCells(records: readonly ProbeRecord[], seed = 1): AccuracyCell[] {
  const groups = new Map<string, ProbeRecord[]>();
  for (const r of records) {
    const key = JSON.stringify([r.probe, armOf(r), r.turn]);
    const list = groups.get(key);
    if (list) list.push(r);
    else groups.set(key, [r]);
  }
  const cells: AccuracyCell[] = [];
  for (const list of groups.values()) {
    const first = list[0]!;
    const scores = list.map((r) => r.score).filter((s): s is number => s !== null);
    const base = { probe: first.probe, scorer: first.scorer, arm: armOf(first), turn: first.turn, n: scores.length, unscored: list.length - scores.length };
    if (first.scorer === 'exact' || first.scorer === 'yesno') {
      const w = wilson(scores.filter((s) => s === 1).length, scores.length);
      cells.push({ ...base, value: w.p, lo: w.lo, hi: w.hi });
    } else {
      const s = summarize(scores, seed);
      cells.push({ ...base, value: s.mean, lo: s.lo, hi: s.hi });
    }
  }
  return cells.sort((a, b) => a.probe.localeCompare(b.probe) || a.arm.localeCompare(b.arm) || a.turn - b.turn);
}

/** What a cell's value means, for a table header or an axis. */
export function valueLabel(scorer: ProbeRecord['scorer']): string {
  switch (scorer) {
    case 'exact':
      return 'share correct';
    case 'yesno':
      return 'share answering yes';
    case 'numeric':
      return 'mean absolute error';
    case 'judge':
      return 'mean judge score (0–10)';
    case 'none':
      return 'answers (not scored)';
  }
}

/**
 * Each arm's score at each episode's last probed turn (episodes end at different turns, so "the last
 * turn" of a chart column holds only the longest ones): one cell per (probe, arm), `turn` = -1.
 */
export function lastTurnCells(records: readonly ProbeRecord[], seed = 1): AccuracyCell[] {
  const last = new Map<string, ProbeRecord>();
  for (const r of records) {
    const key = JSON.stringify([r.probe, r.run, r.episode, r.seat]);
    const seen = last.get(key);
    if (!seen || r.turn > seen.turn) last.set(key, r);
  }
  return accuracyCells([...last.values()].map((r) => ({ ...r, turn: -1 })), seed);
}
