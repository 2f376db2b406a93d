import { judgeVariant, readEvaluation } from '../evaluation.js';
import type { RunDir } from '../run-dir.js';

/**
 * `parley export DIR --format rewards`: one JSON line per move a seat's goal score was split over by
 * `eval --attribute` — the episode, seat and turn, the move, its weight and its reward (its share of the
 * seat's score; a seat's rewards sum to its score). For reward-model training (sotopia-rl's data); the
 * prompt a move answered is in the seat's ledger at that turn (and in `parley export --format openai-chat`).
 */
export interface RewardsExport {
  text: string;
  rows: number;
  episodes: number;
  /** Seats left out, by why: not split, a failed split (by code), a split of an older judgement. */
  leftOut: Record<string, number>;
}

export function exportRewards(run: RunDir): RewardsExport {
  const lines: string[] = [];
  const leftOut: Record<string, number> = {};
  const drop = (why: string, n = 1) => void (leftOut[why] = (leftOut[why] ?? 0) + n);
  let episodes = 0;
  for (const { record } of run.episodes) {
    const ev = readEvaluation(record.evaluation);
    const a = ev?.attribution;
    if (!a || !ev?.judge) {
      drop('not attributed', record.seats.length);
      continue;
    }
    if (a.of !== judgeVariant(ev.judge.judge)) {
      drop('attributed from another judgement than the main one', record.seats.length);
      continue;
    }
    let any = false;
    for (const seat of record.seats) {
      const s = a.seats[seat.seat];
      if (!s) drop('not attributed');
      else if (!s.ok) drop(`attribution failed (${s.error.code})`);
      else {
        any = true;
        for (const x of s.shares) {
          const move = record.turns.find((t) => t.turn === x.turn && t.seat === seat.seat)?.action;
          lines.push(
            JSON.stringify({
              runId: record.runId, episodeId: record.episodeId, scenarioId: record.scenarioId, mode: record.mode, seat: seat.seat, model: seat.model ?? null, turn: x.turn,
              action_type: move?.type ?? null, argument: move?.argument ?? null,
              weight: x.weight, reward: x.share, [a.dimension]: s.score, attributedBy: a.spec, judge: a.of,
            }),
          );
        }
      }
    }
    if (any) episodes++;
  }
  return { text: lines.map((l) => l + '\n').join(''), rows: lines.length, episodes, leftOut };
}
