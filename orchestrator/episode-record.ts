import { policyKind, turnProvenance, type EpisodeRecord, type ScriptWriterRecord, type SeatEvent, type SeatJoin, type SeatRecord, type SeatRecovery } from '../protocol/index.js';
import { computeOutcome } from '../scenarios/outcome.js';
import type { EngineResult, EpisodeError } from './engine/engine-types.js';
import type { EpisodePlan } from './episode-plan.js';
import { SCRIPT_SEAT } from './world.js';

export interface RecordInput {
  plan: EpisodePlan;
  runId: string;
  result: EngineResult;
  /** What each live seat's client reported at join (null: never joined). */
  clients: ReadonlyMap<string, SeatJoin['client'] | null>;
  /** Every pid that held each live seat, in order (several after a crash recovery). */
  pids?: ReadonlyMap<string, readonly number[]>;
  /** Seats re-established after a crash. */
  recoveries?: readonly SeatRecovery[];
  /** Seat connection events (drops, rejoins, heartbeat timeouts, refusals), from the seats' lifecycles. */
  seatEvents?: readonly SeatEvent[];
  startedAtIso: string;
  durationMs: number;
  /** Remote seats: their provenance is their own report (see `SeatRecord.provenance`). */
  provenance?: 'reported' | 'trusted';
  /** Errors found around the engine (pid cross-check, hosting failures). */
  extraErrors?: EpisodeError[];
  /** `--protocol paper`: choices are spoken, not moved (the outcome reads the bots' choice sentences). */
  spokenMoves?: boolean;
  /** A fork: per seat, the ledger line where its live part begins. */
  liveFromLine?: Record<string, number>;
}

/**
 * Assembles the `episodes.jsonl` line: seats in the scenario's order with pid and policy, the turns,
 * the termination, the task outcome computed from the explicit moves, and every error.
 */
export function buildEpisodeRecord(input: RecordInput): EpisodeRecord {
  const { plan, result, clients } = input;
  const script = plan.mode === 'script';
  const writerClient = clients.get(SCRIPT_SEAT) ?? null;
  const writerPolicy = plan.policies?.[SCRIPT_SEAT]?.spec ?? writerClient?.policy ?? 'unknown';

  const seats: SeatRecord[] = plan.scenario.seats.map((s) => {
    const client = script ? null : clients.get(s.seat) ?? null;
    const prov = result.seatProvenance[s.seat] ?? {};
    // A seat left open for a person but taken by an agent process over `/agent` (a Python trainer's
    // parley_seat, `parley agent`): what it is, is its own report, labelled so (not `human`).
    const taken = !script && client?.transport === 'ws' && policyKind(plan.policies?.[s.seat]?.spec ?? '') === 'human' ? client : null;
    const record: SeatRecord = {
      seat: s.seat,
      character: s.character.name,
      pid: client?.pid ?? null,
      policy: script ? writerPolicy : (taken ? taken.policy : plan.policies?.[s.seat]?.spec ?? client?.policy ?? prov.policy ?? 'unknown'),
      live: !script,
    };
    const pids = script ? undefined : input.pids?.get(s.seat);
    if (pids?.length) record.pids = [...pids];
    const provider = script ? result.scriptMeta?.provider : prov.provider;
    const model = script ? result.scriptMeta?.model : prov.model;
    const params = script ? result.scriptMeta?.params : prov.params ?? plan.policies?.[s.seat]?.params;
    if (provider !== undefined) record.provider = provider;
    if (model !== undefined) record.model = model;
    if (params !== undefined && Object.keys(params).length > 0) record.params = params;
    if (input.provenance && !script) record.provenance = input.provenance;
    else if (taken) record.provenance = 'reported';
    if (client) record.client = { name: client.name, version: client.version, ...(client.transport ? { transport: client.transport } : {}) };
    return record;
  });

  const record: EpisodeRecord = {
    episodeId: plan.episodeId,
    runId: input.runId,
    scenarioId: plan.scenario.id,
    pairId: plan.scenario.pairId,
    repeat: plan.repeat,
    ...(plan.draw ? { draw: plan.draw } : {}),
    mode: plan.mode,
    seats,
    turns: result.turns,
    termination: result.termination,
    outcome: result.game ? { kind: 'game', winner: result.game.winner, success: null } : computeOutcome(plan.scenario, result.turns, input.spokenMoves ?? false),
    errors: [...result.errors, ...(input.extraErrors ?? [])],
    ...(input.recoveries?.length ? { recoveries: [...input.recoveries] } : {}),
    ...(input.seatEvents?.length ? { seatEvents: [...input.seatEvents] } : {}),
    status: result.status,
    startedAt: input.startedAtIso,
    durationMs: input.durationMs,
    ...(result.game ? { game: result.game } : {}),
  };
  const fork = plan.fork;
  if (fork) {
    record.fork = {
      parentRun: fork.parentRun,
      parentEpisode: fork.parentEpisode,
      at: fork.at,
      ...(fork.revealText.length ? { reveal: [...fork.revealText] } : {}),
      ...(input.liveFromLine ? { liveFromLine: { ...input.liveFromLine } } : {}),
    };
  }
  if (script) {
    const meta = result.scriptMeta;
    const writer: ScriptWriterRecord = { pid: writerClient?.pid ?? null, policy: writerPolicy };
    const writerPids = input.pids?.get(SCRIPT_SEAT);
    if (writerPids?.length) writer.pids = [...writerPids];
    if (result.scriptUnparsable) writer.unparsable = result.scriptUnparsable;
    if (result.scriptProviderError) writer.providerError = result.scriptProviderError;
    record.scriptWriter = meta ? { ...writer, ...turnProvenance(meta) } : writer;
  }
  return record;
}
