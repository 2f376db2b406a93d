import type { TurnRequest } from '../../../protocol/index.js';
import type { ChatMessage } from '../../../llm/index.js';
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
import { fillTemplate, type Template } from './templates.js';

/** How a seat calls others: its own name, partners' names when the relationship shows them, else by seat. */
export function namesFor(view: SeatView): NameOf {
  const names = new Map<string, string>();
  for (const p of view.peers) if (p.profile.name) names.set(p.seat, p.profile.name);
  for (const p of view.welcome.partners) if (p.profile.name) names.set(p.seat, p.profile.name);
  if (view.welcome.self.profile.name) names.set(view.welcome.seat, view.welcome.self.profile.name);
  return (seat) => names.get(seat) ?? `the person in seat ${seat}`;
}

/** Placeholder values for the agent template, from the seat's view only. */
export function agentValues(view: SeatView, request: TurnRequest): Record<string, string | number> {
  const { welcome } = view;
  const nameOf = namesFor(view);
  const maxTurns = welcome.limits.maxTurns;
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
    history: renderHistory(view.events, nameOf),
    turn: request.turn,
    max_turns: maxTurns,
    turns_left: Math.max(1, maxTurns - request.turn),
    actions: quotedList(request.actions),
    action_guide: renderActionGuide(request.actions, welcome.scenario.seats.length),
    private_moves: privateMovesGuide(addresseesOf(view, nameOf, request.actions), request.actions),
  };
}

/** The agent's messages for this turn. */
export function agentMessages(template: Template, view: SeatView, request: TurnRequest): ChatMessage[] {
  return fillTemplate(template, agentValues(view, request));
}
