import type { EpisodeRecord, PolicyConfig, TurnRequest } from '../protocol/index.js';
import type { Scenario } from '../scenarios/model.js';
import { seatTurnsFromLedger, type RenderView } from '../training/seat-turns.js';
import type { ProbeDefinition } from './definitions.js';
import { readRunLedger, type ProbeRun } from './probe-run.js';

/** One question to put: a seat of an episode at one of its turns, with the view it had then. */
export interface ProbeTarget {
  record: EpisodeRecord;
  scenario: Scenario;
  seat: string;
  turn: number;
  /** The seat's view when it was asked to move at `turn`, replayed from its ledger (no call made). */
  view: RenderView;
  request: TurnRequest;
  /** The seat's own policy as the run recorded it. */
  policy: PolicyConfig;
  truth: string | number;
}

export interface PlanOptions {
  probe: ProbeDefinition;
  seat: string;
  /** Turns to probe at, or every turn the seat was asked to move at. */
  at: number[] | 'all';
  /** Episode ids, parts of ids, or modes; empty: every agents/mindreaders episode. */
  episodes: string[];
}

export type Plan = { ok: true; targets: ProbeTarget[]; skipped: { noTruth: number; shorter: number; notAsked: number } } | { ok: false; message: string };

/** The episodes a filter names; each item must name at least one. Script episodes have no seat turns to replay. */
/** The episodes a filter chooses; `named` are those chosen by id or a part of one (not only by their mode). */
function chooseEpisodes(run: ProbeRun, filter: readonly string[]): { ok: true; chosen: EpisodeRecord[]; named: ReadonlySet<EpisodeRecord> } | { ok: false; message: string } {
  const live = run.episodes.filter((e) => e.mode !== 'script');
  if (filter.length === 0) return live.length ? { ok: true, chosen: live, named: new Set() } : { ok: false, message: `${run.dir} has no agents or mindreaders episode to probe` };
  const chosen = new Set<EpisodeRecord>();
  const named = new Set<EpisodeRecord>();
  for (const item of filter) {
    const hits = live.filter((e) => e.mode === item || e.episodeId === item || e.episodeId.includes(item));
    if (hits.length === 0) return { ok: false, message: `--episodes: '${item}' names no agents or mindreaders episode of ${run.dir}` };
    hits.forEach((e) => chosen.add(e));
    hits.filter((e) => e.mode !== item).forEach((e) => named.add(e));
  }
  return { ok: true, chosen: [...chosen], named };
}

/**
 * Every (episode, seat, turn) to probe, or the one line that says why none can be: an unknown seat, a
 * turn no chosen episode reached (or the seat never played), a probe with no ground truth for the chosen
 * episodes' scenario kind. Episodes without ground truth are skipped unless named explicitly (by id or a
 * part of one; a mode chooses episodes without naming them).
 */
export function planTargets(run: ProbeRun, opts: PlanOptions): Plan {
  const episodes = chooseEpisodes(run, opts.episodes);
  if (!episodes.ok) return episodes;
  const { chosen, named } = episodes;
  const seatsSeen = new Set(chosen.flatMap((e) => e.seats.map((s) => s.seat)));
  if (!seatsSeen.has(opts.seat)) return { ok: false, message: `unknown seat '${opts.seat}' (the chosen episodes have seats ${[...seatsSeen].join(', ')})` };
  const skipped = { noTruth: 0, shorter: 0, notAsked: 0 };
  const targets: ProbeTarget[] = [];
  const reached = new Map<number, 'past' | 'not-asked' | 'ok'>();
  const kinds = new Set<string>();
  for (const record of chosen) {
    const scenario = run.scenarios.get(record.scenarioId);
    if (!scenario) return { ok: false, message: `${run.dir}/scenarios.jsonl has no scenario ${JSON.stringify(record.scenarioId.slice(0, 120))} (episode ${record.episodeId}'s)` };
    const index = record.seats.findIndex((s) => s.seat === opts.seat);
    if (index < 0) continue;
    const truth = opts.probe.truth(scenario, opts.seat);
    if (truth === null) {
      kinds.add(scenario.kind);
      if (named.has(record)) return { ok: false, message: `probe ${opts.probe.name} has no ground truth for ${scenario.kind} scenarios (episode ${record.episodeId})` };
      skipped.noTruth += 1;
      continue;
    }
    const ledger = readRunLedger(run, record.episodeId, opts.seat);
    if (!ledger.ok) return { ok: false, message: ledger.message };
    const turns = seatTurnsFromLedger(ledger.frames);
    const wanted = opts.at === 'all' ? turns.map((t) => t.request.turn) : opts.at;
    const policy = run.config.agents[Math.min(index, run.config.agents.length - 1)]!;
    for (const turn of wanted) {
      const found = turns.find((t) => t.request.turn === turn);
      if (!found) {
        const past = turn >= record.turns.length;
        if (reached.get(turn) !== 'ok') reached.set(turn, past ? 'past' : 'not-asked');
        if (past) skipped.shorter += 1;
        else skipped.notAsked += 1;
        continue;
      }
      reached.set(turn, 'ok');
      targets.push({ record, scenario, seat: opts.seat, turn, view: found.view, request: found.request, policy, truth });
    }
  }
  if (targets.length === 0 && skipped.noTruth > 0 && reached.size === 0) {
    return { ok: false, message: `probe ${opts.probe.name} has no ground truth for ${[...kinds].join(', ')} scenarios (no chosen episode has one)` };
  }
  for (const [turn, how] of reached) {
    if (how === 'past') return { ok: false, message: `--at ${turn}: past the end of every chosen episode (the longest has ${Math.max(...chosen.map((e) => e.turns.length))} turns, numbered from 0)` };
    if (how === 'not-asked') return { ok: false, message: `--at ${turn}: seat ${opts.seat} was not asked to move at turn ${turn} in any chosen episode (a probe replays a turn the seat played)` };
  }
  if (targets.length === 0) return { ok: false, message: `nothing to probe: seat ${opts.seat} played no turn in the chosen episodes` };
  return { ok: true, targets, skipped };
}
