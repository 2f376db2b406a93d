import { receiversOf, recipientProblem, type ScriptTurn, type TurnRecord } from '../../protocol/index.js';
import { definitionOf, type SimulationProtocol } from '../../simulation/index.js';
import type { Scenario } from '../../scenarios/model.js';
import { terminationAfter, type Termination } from './termination.js';

export type ValidatedScript =
  | { ok: true; turns: TurnRecord[]; termination: Termination; dropped: number }
  | { ok: false; message: string };

/**
 * Turns a submitted script into turn records, or says why it is not a script of this scenario.
 * Every turn must name a seat of the scenario. Under `parley` the script is cut where a live episode
 * would end (by the protocol's stop rules: termination.ts); what follows is dropped and counted. Under
 * `paper` the whole script is kept, as SOTOPIA's script mode at the paper's tag runs no stop rule on a
 * script and its judge reads every parsed turn (docs/fidelity.md). A script that runs out without an
 * earlier end ends with `script_end`.
 */
export function validateScript(
  scenario: Scenario,
  script: readonly ScriptTurn[],
  maxTurns: number,
  atMs: number,
  provenance: { provider?: string; model?: string } = {},
  protocol?: SimulationProtocol,
): ValidatedScript {
  if (script.length === 0) return { ok: false, message: 'the script has no turns' };
  const order = scenario.seats.map((s) => s.seat);
  const seats = new Set(order);
  for (const [i, t] of script.entries()) {
    if (!seats.has(t.seat)) return { ok: false, message: `script turn ${i}: unknown seat '${t.seat}' (seats: ${[...seats].join(', ')})` };
    // A script may write private moves too (the writer sees everything); their recipients are held to the live rule.
    const badTo = recipientProblem(t.action, t.seat, order);
    if (badTo) return { ok: false, message: `script turn ${i}: ${badTo}` };
  }
  const turns: TurnRecord[] = [];
  for (const [i, t] of script.entries()) {
    const { type, argument, to } = t.action;
    const record: TurnRecord = to === undefined ? { turn: i, seat: t.seat, action: { type, argument }, atMs } : { turn: i, seat: t.seat, action: { type, argument, to: [...to] }, to: receiversOf(t.action, t.seat, order), atMs };
    if (provenance.provider !== undefined) record.provider = provenance.provider;
    if (provenance.model !== undefined) record.model = provenance.model;
    turns.push(record);
    // A game's script is cut by the game's own rules instead (orchestrator/game/score-script.ts).
    if (!definitionOf(protocol?.name).engine.cutScripts || scenario.truth?.kind === 'game') continue;
    const end = terminationAfter(scenario, turns, maxTurns, protocol);
    if (end) return { ok: true, turns, termination: end, dropped: script.length - turns.length };
  }
  return { ok: true, turns, termination: { reason: 'script_end' }, dropped: 0 };
}
