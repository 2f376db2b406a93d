import type { PeerPrivateState, TurnRequest } from '../../../protocol/index.js';
import { jsonPrefix, prefixedMessage, type ChatMessage, type JsonPrefix } from '../../../llm/index.js';
import type { SeatView } from '../../policy.js';
import {
  quotedList,
  renderActionGuide,
  renderHints,
  renderHistory,
  renderPartnerGoals,
  renderPartners,
  groupLines,
  companyWords,
  renderProfile,
  renderTask,
  renderTaskMoves,
  type NameOf,
} from './render.js';
import { addresseesOf, privateMovesGuide } from './private-moves.js';
import { fillPart, fillSplitRest, placeholdersOf, splitPart, type SplitPart, type Template } from './templates.js';

/** How a seat calls others: its own name, partners' names when the relationship shows them, else by seat. */
export function namesFor(view: SeatView): NameOf {
  const names = new Map<string, string>();
  for (const p of view.peers) if (p.profile.name) names.set(p.seat, p.profile.name);
  for (const p of view.welcome.partners) if (p.profile.name) names.set(p.seat, p.profile.name);
  if (view.welcome.self.profile.name) names.set(view.welcome.seat, view.welcome.self.profile.name);
  return (seat) => names.get(seat) ?? `the person in seat ${seat}`;
}

/** The placeholders that change from turn to turn; every other one is a function of the seat's welcome, peers and allowed actions. */
const PER_TURN = new Set(['history', 'turn', 'turns_left']);

/** What a seat's prompt keeps from turn to turn while its welcome, peers' states and allowed actions stay the same. */
interface SteadyPart {
  peers: readonly PeerPrivateState[];
  actions: readonly string[];
  nameOf: NameOf;
  values: Record<string, string | number>;
  /** Template parts that use no per-turn placeholder, filled once (null: the part came out empty). */
  filled: Map<Template['parts'][number], ChatMessage | null>;
  /**
   * Parts with a per-turn placeholder, their steady beginning tidied once (null: no safe split, filled whole).
   * Why: the user message's tidying ran three regular expressions over its whole text every turn, most of it
   * the same scenario, profile and guides (bench/agent-profile.md, seventeenth pass).
   */
  split: Map<Template['parts'][number], SplitPart | null>;
  /** Each part's text that stays the same (a steady part's whole content, a split part's head), with its JSON (llm/json-prefix.ts). */
  prefixes: Map<Template['parts'][number], JsonPrefix>;
}

/**
 * The steady part by welcome frame (a new welcome, after a reconnect, starts afresh; a pooled process's
 * finished seats drop out with their frames). Why: rendering the profile, partners, scenario and guides,
 * and filling and tidying the system message, every turn was ~5 % of a warm model seat's CPU for text that
 * is the same all episode (bench/agent-profile.md, ninth pass).
 */
const steadyByWelcome = new WeakMap<SeatView['welcome'], SteadyPart>();

const sameList = (a: readonly unknown[], b: readonly unknown[]) => a.length === b.length && a.every((x, i) => x === b[i]);

function steadyPart(view: SeatView, request: TurnRequest): SteadyPart {
  const known = steadyByWelcome.get(view.welcome);
  if (known && sameList(known.peers, view.peers) && sameList(known.actions, request.actions)) return known;
  const nameOf = namesFor(view);
  const steady: SteadyPart = { peers: [...view.peers], actions: [...request.actions], nameOf, values: steadyValues(view, request, nameOf), filled: new Map(), split: new Map(), prefixes: new Map() };
  steadyByWelcome.set(view.welcome, steady);
  return steady;
}

/** The placeholders that stay the same all episode (while the peers' states and allowed actions do). */
function steadyValues(view: SeatView, request: TurnRequest, nameOf: NameOf): Record<string, string | number> {
  const { welcome } = view;
  const style = welcome.protocol?.persona ?? 'prose';
  return {
    name: nameOf(welcome.seat),
    seat: welcome.seat,
    scenario: welcome.scenario.text.trim() || '(No description of the situation was given.)',
    self: renderProfile(welcome.self.profile, { includeSecret: true, style }),
    goal: welcome.self.goal.trim() || '(No explicit goal.)',
    hints: renderHints(welcome.self.hints),
    partners: renderPartners(welcome.partners, nameOf, groupLines(welcome.scenario.seats, welcome.seat, nameOf), style),
    ...companyWords(welcome.scenario.seats.length),
    partner_goals: renderPartnerGoals(welcome.partners, view.peers, nameOf, style),
    task: renderTask(welcome.self.task),
    task_moves: renderTaskMoves(welcome.scenario.kind, request.actions),
    max_turns: welcome.limits.maxTurns,
    actions: quotedList(request.actions),
    action_guide: renderActionGuide(request.actions, welcome.scenario.seats.length),
    private_moves: privateMovesGuide(addresseesOf(view, nameOf, request.actions), request.actions),
  };
}

/** Placeholder values for the agent template, from the seat's view only. */
export function agentValues(view: SeatView, request: TurnRequest): Record<string, string | number> {
  return valuesOf(steadyPart(view, request), view, request);
}

function valuesOf(steady: SteadyPart, view: SeatView, request: TurnRequest): Record<string, string | number> {
  return {
    ...steady.values,
    history: renderHistory(view.events, steady.nameOf),
    turn: request.turn,
    turns_left: Math.max(1, view.welcome.limits.maxTurns - request.turn),
  };
}

/** A part's steady text with its JSON, made once per steady part. */
function prefixOf(steady: SteadyPart, part: Template['parts'][number], text: string): JsonPrefix {
  let prefix = steady.prefixes.get(part);
  if (prefix?.text !== text) steady.prefixes.set(part, (prefix = jsonPrefix(text)));
  return prefix;
}

/** The agent's messages for this turn: parts without a per-turn placeholder are filled once per steady part. */
export function agentMessages(template: Template, view: SeatView, request: TurnRequest): ChatMessage[] {
  const steady = steadyPart(view, request);
  const values = valuesOf(steady, view, request);
  const messages: ChatMessage[] = [];
  for (const part of template.parts) {
    const steadyMessage = steady.filled.get(part);
    if (steadyMessage === null) continue;
    if (steadyMessage) {
      // A new message each turn (callers own the messages they are given); its JSON reuses the steady text's.
      messages.push(prefixedMessage(steadyMessage.role, prefixOf(steady, part, steadyMessage.content), ''));
      continue;
    }
    if (!placeholdersOf(part).some((name) => PER_TURN.has(name))) {
      const message = fillPart(part, values);
      steady.filled.set(part, message);
      if (message) messages.push({ ...message });
      continue;
    }
    let split = steady.split.get(part);
    if (split === undefined) steady.split.set(part, (split = splitPart(part, PER_TURN, steady.values)));
    if (split) messages.push(prefixedMessage(split.role, prefixOf(steady, part, split.head), fillSplitRest(split, values)));
    else {
      const message = fillPart(part, values);
      if (message) messages.push(message);
    }
  }
  return messages;
}
