import type { ChatMessage } from '../../../llm/index.js';
import type { ScriptRequest, TurnRequest } from '../../../protocol/index.js';
import type { SeatView } from '../../policy.js';
import { paperBackground, paperGoal, paperHistory } from './paper-render.js';
import { addresseesOf, privateMovesGuide } from './private-moves.js';
import { countWord, listNames, type NameOf } from './render.js';

/** A group's leave rule (three or more participants), added to the context under `paper`. */
const GROUP_LEAVE_RULE = 'Turns go round the participants in the order listed; someone who leaves takes no more turns, and the conversation goes on until all but one participant have left.';
import { fillTemplate, type Template } from './templates.js';

/**
 * Prompt values for `--protocol paper` (templates `agent-paper.md`, `script-paper.md`). The context block
 * carries what SOTOPIA's `ScriptBackground` carries, in its order: scenario, participants, a background
 * line per participant (as the backgrounds rule allows), a goal line per participant (the partner's
 * "Unknown" unless it arrived in `peer.state`). No relationship sentence, no countdown, no task moves.
 */

/** Names under `paper`: every participant is named (the projection sends names at every level). */
export function paperNames(view: SeatView): NameOf {
  const names = new Map<string, string>();
  for (const p of view.welcome.partners) if (p.profile.name) names.set(p.seat, p.profile.name);
  for (const p of view.peers) if (p.profile.name) names.set(p.seat, p.profile.name);
  if (view.welcome.self.profile.name) names.set(view.welcome.seat, view.welcome.self.profile.name);
  return (seat) => names.get(seat) ?? seat;
}

/** The "context of the interaction" lines an agent sees. */
export function agentContext(view: SeatView): string {
  const { welcome } = view;
  const nameOf = paperNames(view);
  const seats = welcome.scenario.seats;
  const backgrounds = welcome.protocol?.backgrounds ?? 'code';
  const mindreading = welcome.mode === 'mindreaders';
  const lines = [`Scenario: ${welcome.scenario.text.trim() || '(none given)'}`, `Participants: ${listNames(seats.map(nameOf))}`];
  // SOTOPIA's renderer hides a stranger's whole background, and its context then drops both backgrounds.
  const stranger = welcome.partners.some((p) => p.relationship === 0);
  const showBackgrounds = mindreading || !(backgrounds === 'code' && stranger);
  if (showBackgrounds) {
    for (const seat of seats) {
      const profile = seat === welcome.seat
        ? welcome.self.profile
        : (mindreading ? view.peers.find((p) => p.seat === seat)?.profile : undefined) ?? welcome.partners.find((p) => p.seat === seat)?.profile ?? {};
      lines.push(`${nameOf(seat)}'s background: ${paperBackground(profile, nameOf(seat))}`);
    }
  }
  // --show-relationship-story: the story arrives only when the run opted in (orchestrator/profile-view.ts).
  for (const p of welcome.partners) if (p.sharedHistory?.trim()) lines.push(historyLine(nameOf(welcome.seat), nameOf(p.seat), p.sharedHistory));
  for (const seat of seats) {
    if (seat === welcome.seat) {
      lines.push(`${nameOf(seat)}'s goal: ${paperGoal(welcome.self.goal, welcome.self.hints)}`);
      continue;
    }
    const peer = view.peers.find((p) => p.seat === seat);
    lines.push(`${nameOf(seat)}'s goal: ${peer?.goal.trim() ? paperGoal(peer.goal, peer.hints) : 'Unknown'}`);
  }
  // Groups only (two seats: SOTOPIA's context exactly): the leave rule differs when others remain.
  if (seats.length > 2) lines.push(GROUP_LEAVE_RULE);
  return lines.join('\n');
}

/**
 * The relationship's background story, sent only with --show-relationship-story (SOTOPIA's prompts have no
 * such line; the story is judge-only by default because it often names secrets).
 */
function historyLine(a: string, b: string, story: string): string {
  return `${a} and ${b}'s shared history: ${story.trim()}`;
}

/** Placeholder values for the paper agent template, from the seat's view only. */
export function paperAgentValues(view: SeatView, request: TurnRequest): Record<string, string | number> {
  const nameOf = paperNames(view);
  return {
    name: nameOf(view.welcome.seat),
    context: agentContext(view),
    history: paperHistory(view.events, nameOf),
    turn: request.turn,
    actions: request.actions.join(' '),
    action_list: request.actions.map((a) => JSON.stringify(a)).join(', '),
    private_moves: privateMovesGuide(addresseesOf(view, nameOf, request.actions), request.actions),
  };
}

/** The agent's messages for this turn under `paper`. */
export function paperAgentMessages(template: Template, view: SeatView, request: TurnRequest): ChatMessage[] {
  // The history as rendered: an empty turn's line keeps its trailing blank (`Turn #n: `), as SOTOPIA's.
  return fillTemplate(template, paperAgentValues(view, request), ['history']);
}

/** The script writer's context: both participants in full (SOTOPIA's script prompt gives it everything). */
export function scriptContext(request: ScriptRequest): string {
  const { background } = request;
  const name = (seat: string) => background.seats.find((s) => s.seat === seat)?.profile.name ?? seat;
  const lines = [`Scenario: ${background.scenario.text.trim() || '(none given)'}`, `Participants: ${listNames(background.seats.map((s) => name(s.seat)))}`];
  for (const s of background.seats) lines.push(`${name(s.seat)}'s background: ${paperBackground(s.profile, name(s.seat))}`);
  // Each pair's story once (--show-relationship-story only), from the first seat's side.
  const told = new Set<string>();
  for (const s of background.seats) {
    for (const p of s.partners) {
      const pair = [s.seat, p.seat].sort().join('\u0000');
      if (told.has(pair) || !p.sharedHistory?.trim()) continue;
      told.add(pair);
      lines.push(historyLine(name(s.seat), name(p.seat), p.sharedHistory));
    }
  }
  for (const s of background.seats) lines.push(`${name(s.seat)}'s goal: ${paperGoal(s.goal, s.hints)}`);
  if (background.seats.length > 2) lines.push(GROUP_LEAVE_RULE);
  return lines.join('\n');
}

/** Placeholder values for the paper script template, from the `script.request` frame only. */
export function paperScriptValues(request: ScriptRequest): Record<string, string | number> {
  return { context: scriptContext(request), max_turns: request.limits.maxTurns, how_many: countWord(request.background.seats.length) };
}

/** The script writer's messages under `paper` (free-text script). */
export function paperScriptMessages(template: Template, request: ScriptRequest): ChatMessage[] {
  return fillTemplate(template, paperScriptValues(request));
}

/**
 * SOTOPIA's one reformat request for an agent's unreadable move under `paper` (reformat-paper.md): a
 * fresh request holding the unreadable text and the JSON format, nothing of the conversation.
 */
export function paperReformatMessages(template: Template, unreadable: string, actions: readonly string[]): ChatMessage[] {
  return fillTemplate(template, { reply: unreadable, action_list: actions.map((a) => JSON.stringify(a)).join(', ') });
}

/** The same for an unreadable free-text script (reformat-script-paper.md), with the two names, as SOTOPIA sent them. */
export function paperScriptReformatMessages(template: Template, unreadable: string, request: ScriptRequest): ChatMessage[] {
  const names = request.background.seats.map((s) => s.profile.name ?? s.seat);
  return fillTemplate(template, { reply: unreadable, names: listNames(names), how_many: countWord(names.length) });
}
