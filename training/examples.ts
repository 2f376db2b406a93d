import type { Action, Limits } from '../protocol/index.js';
import type { SimulationProtocol } from '../simulation/index.js';
import type { ChatMessage } from '../llm/index.js';
import { seatAddressees, seatPromptMessages, type AgentTemplates } from '../agent-node/policies/llm/seat-prompt.js';
import type { LedgerReader, LimitsOf } from './source.js';
import { seatTurnsFromLedger, type SeatTurn } from './seat-turns.js';
import { seatTurnsFromScript, type ScriptView } from './script-turns.js';
import type { Unit } from './select.js';
import { exampleLine } from './formats.js';

/** The agent templates a seat's prompts were rendered from (the protocol in its welcome picks one). */
export type AgentTemplate = AgentTemplates;

/** One training example: what a seat's agent was (or would have been) sent at one turn, and what it did. */
export interface TrainingExample {
  runDir: string;
  episodeId: string;
  scenarioId: string;
  mode: string;
  seat: string;
  turn: number;
  /** `provider:model` that produced the move (the script writer's, for script episodes), when known. */
  model: string | null;
  /** The prompt messages, then the move as the assistant message. */
  messages: ChatMessage[];
}

/**
 * The move in the reply shape the agent template asks for (`{"action_type", "argument"}`). Where the seat
 * could address others privately (a group: `addressees`), the shape has `"to"` too, as the live reply
 * schema requires it: the recipients by the names the seat's prompt uses, [] for a public move.
 */
export function actionReply(action: Action, addressees: ReturnType<typeof seatAddressees> = null): string {
  if (!addressees) return JSON.stringify({ action_type: action.type, argument: action.argument });
  const nameOfSeat = new Map(addressees.names.map((name) => [addressees.bySpelling.get(name.toLowerCase()), name]));
  return JSON.stringify({ action_type: action.type, argument: action.argument, to: (action.to ?? []).map((seat) => nameOfSeat.get(seat) ?? seat) });
}

export interface BuildOptions {
  /** Which view script-mode turns are rendered into. */
  view: ScriptView;
  /** The agent template for a unit (a run may have used its own prompt directory). */
  templateFor: (unit: Unit) => AgentTemplate;
  readLedger: LedgerReader;
  limitsOf: LimitsOf;
  /**
   * The simulation protocol the episode's run followed (its run.json), for script episodes: their turns
   * are rendered as that protocol's agents were told (SOTOPIA's prompt under `paper`); absent: `parley`.
   */
  protocolOf?: (source: Unit['source']) => SimulationProtocol | undefined;
}

export type BuildResult = { ok: true; examples: TrainingExample[] } | { ok: false; message: string };

/**
 * The examples of one (episode, seat): one per turn the seat moved, each the messages the SAME renderer
 * the LLM policy uses (`seatPromptMessages`) makes from the seat's view — for live episodes the view replayed
 * from the seat's ledger (so the prompt equals the cassette's), for script episodes the view `observe()`
 * projects for that character — followed by the move that was taken.
 */
export function buildExamples(unit: Unit, opts: BuildOptions): BuildResult {
  const { record, scenario, runDir } = unit.source;
  let turns: SeatTurn[];
  if (record.mode === 'script') {
    const limits: Limits | null = opts.limitsOf(unit.source);
    if (!scenario || !limits) return { ok: false, message: `${runDir}: episode ${record.episodeId}: ${!scenario ? 'its scenario' : 'the script request (limits)'} is not in the run directory` };
    turns = seatTurnsFromScript(record, scenario, limits, opts.view, unit.seat, opts.protocolOf?.(unit.source));
  } else {
    const ledger = opts.readLedger(runDir, record.episodeId, unit.seat);
    if (!ledger.ok) return { ok: false, message: ledger.message };
    turns = seatTurnsFromLedger(ledger.frames);
  }
  const who = record.mode === 'script' ? record.scriptWriter : record.seats.find((s) => s.seat === unit.seat);
  const model = who?.model ? `${who.provider ?? '?'}:${who.model}` : null;
  const template = opts.templateFor(unit);
  const examples: TrainingExample[] = [];
  for (const { view, request } of turns) {
    const move = record.turns.find((t) => t.turn === request.turn && t.seat === unit.seat);
    if (!move?.action) continue;
    const prompt = seatPromptMessages(template, view, request);
    // Last line of defence for converted script turns: judge-only text never reaches a training prompt.
    const judgeOnly = record.mode === 'script' ? scenario?.judgeOnly.trim() : '';
    if (judgeOnly && prompt.some((m) => m.content.includes(judgeOnly))) {
      return { ok: false, message: `${runDir}: episode ${record.episodeId} seat ${unit.seat} turn ${request.turn}: the rendered prompt holds judge-only text; nothing was written` };
    }
    examples.push({
      runDir,
      episodeId: record.episodeId,
      scenarioId: record.scenarioId,
      mode: record.mode,
      seat: unit.seat,
      turn: request.turn,
      model,
      messages: [...prompt, { role: 'assistant', content: actionReply(move.action, seatAddressees(view, request)) }],
    });
  }
  return { ok: true, examples };
}

/**
 * Drops examples whose messages repeat an earlier example's exactly (roles and contents: the line the file
 * would hold); returns how many were dropped.
 */
export function dedupe(examples: readonly TrainingExample[]): { examples: TrainingExample[]; duplicates: number } {
  const seen = new Set<string>();
  const out: TrainingExample[] = [];
  for (const ex of examples) {
    const key = exampleLine(ex);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(ex);
  }
  return { examples: out, duplicates: examples.length - out.length };
}
