import type { EpisodeRecord, SelectionMark } from '../../protocol/index.js';
import { MAX_DRAWS, SHORT_EPISODE_MOVES, type SimulationProtocol } from '../../simulation/index.js';
import type { EpisodePlan } from '../episode-plan.js';
import { episodeId } from './plan.js';

/**
 * The `first-valid` selection rule (protocol setting `selection`; issue 42). SOTOPIA's experiment procedure
 * at the paper's tag deleted and re-ran two kinds of episode until each instance had a valid one: those
 * with 5 or fewer moves or script turns (`fix_missing_episodes_with_tag.py` counts the rendered turns
 * between the first and the reasoning: one per environment step in agents mode, one per script line), and
 * those its judge could not score. Parley re-draws instead of deleting: the next draw of an instance is a
 * new episode (its id adds the draw number, so a bot's or a model's randomness differs), every draw stays
 * in episodes.jsonl with its mark (`SelectionMark`), and the first valid draw is the counted one. A
 * re-draw is owed while the latest recorded draw of an instance is `superseded`, so a killed run resumes
 * the rule where it stopped. At most MAX_DRAWS draws: the last invalid one is `exhausted`.
 */

/** SOTOPIA's short rule: an ok episode with 5 or fewer moves (every recorded turn, a `none` included) or script turns. */
export function isShort(r: Pick<EpisodeRecord, 'status' | 'turns'>): boolean {
  return r.status === 'ok' && r.turns.length <= SHORT_EPISODE_MOVES;
}

/** Whether a draw may be followed by another (the bound not reached). */
const canRedraw = (r: Pick<EpisodeRecord, 'draw'>) => (r.draw ?? 0) + 1 < MAX_DRAWS;

/** An invalid draw's mark: superseded by the next draw, or exhausted at the bound. */
function invalid(r: Pick<EpisodeRecord, 'draw'>, reason: NonNullable<SelectionMark['reason']>): SelectionMark {
  return { status: canRedraw(r) ? 'superseded' : 'exhausted', reason };
}

/**
 * A finished episode's record with its mark, as it is appended: under `first-valid`, a short episode is
 * superseded (its re-draw is owed) and any other is counted; a failed one is counted as failed (a failure
 * is not re-drawn: `--retry-failed` reruns it). Under `all`, and for forks, records carry no mark.
 */
export function markOnArrival(r: EpisodeRecord, protocol: Pick<SimulationProtocol, 'selection'>): EpisodeRecord {
  if (protocol.selection !== 'first-valid' || r.fork) return r;
  return { ...r, selection: isShort(r) ? invalid(r, 'short') : { status: 'counted' } };
}

/** Draw `draw` of the instance a first-draw plan plays: the same plan under its own episode id. */
export function drawOf(plan: EpisodePlan, draw: number): EpisodePlan {
  const key = plan.idKey!;
  const id = episodeId({ scenarioId: plan.scenario.id, pairId: plan.scenario.pairId, mode: plan.mode, specs: key.specs, repeat: plan.repeat, ...(key.protocol ? { protocol: key.protocol } : {}), draw });
  return { ...plan, draw, episodeId: id };
}

/**
 * Whether any of these plans can owe a re-draw (first draws under first-valid selection): when none can,
 * `owedRedraws` is empty whatever is recorded, and the caller need not read episodes.jsonl to ask.
 */
export function mayOweRedraws(plans: readonly EpisodePlan[]): boolean {
  return plans.some((p) => !!p.idKey && !p.draw);
}

/**
 * The re-draws owed: for each planned first draw, its recorded draws are followed while they are
 * superseded; the first draw with no record after them is owed. Plans without an id key (forks) have none.
 */
export function owedRedraws(plans: readonly EpisodePlan[], recorded: ReadonlyMap<string, Pick<EpisodeRecord, 'selection'>>): EpisodePlan[] {
  const owed: EpisodePlan[] = [];
  for (const first of plans) {
    if (!first.idKey || first.draw) continue;
    for (let d = 0; d < MAX_DRAWS; d++) {
      const plan = d === 0 ? first : drawOf(first, d);
      const r = recorded.get(plan.episodeId);
      if (!r) {
        if (d > 0) owed.push(plan);
        break;
      }
      if (r.selection?.status !== 'superseded') break;
    }
  }
  return owed;
}

/**
 * Whether the judge could not score a judged episode: its main judgement has a seat without scores (as
 * SOTOPIA's fix script found rewards that were not score tuples). Read structurally from the stored
 * evaluation (`evaluator/evaluation.ts` writes `{ judge: { seats: { <seat>: { ok } } } }`): the
 * orchestrator does not import the evaluator. Unjudged episodes are not unscored.
 */
export function isUnscored(evaluation: unknown): boolean {
  const seats = (evaluation as { judge?: { seats?: unknown } } | undefined)?.judge?.seats;
  if (!seats || typeof seats !== 'object') return false;
  return Object.values(seats as Record<string, { ok?: unknown }>).some((s) => s?.ok !== true);
}

/**
 * `run --redraw`: the counted draws the judge could not score, marked superseded (or exhausted at the
 * bound) in the raw rows, which are returned for the caller to rewrite; `changed` counts them.
 */
export function markUnscored(rows: readonly { record: EpisodeRecord; raw: Record<string, unknown> }[]): { raws: Record<string, unknown>[]; changed: number } {
  let changed = 0;
  const raws = rows.map(({ record, raw }) => {
    if (record.selection?.status !== 'counted' || record.status !== 'ok' || !isUnscored(record.evaluation)) return raw;
    changed += 1;
    return { ...raw, selection: invalid(record, 'unscored') };
  });
  return { raws, changed };
}
