import type { ChatMessage } from '../../../llm/index.js';
import type { SeatCapabilities, TurnRequest } from '../../../protocol/index.js';
import { seatCapabilities } from '../../../simulation/index.js';
import type { SeatView } from '../../policy.js';
import { agentMessages, namesFor } from './agent-prompt.js';
import { gameMessages, isGameSeat } from './game-prompt.js';
import { paperAgentMessages, paperNames } from './paper-prompt.js';
import { addresseesOf, type Addressees } from './private-moves.js';
import type { Templates } from './templates.js';

/** The two agent templates a seat's prompt can come from (`agent.md`, Parley's own; `agent-paper.md`, SOTOPIA's). */
export type AgentTemplates = Pick<Templates, 'agent' | 'agent_paper' | 'game'>;

/** Each prompt set a seat can be told to use (`SeatCapabilities.prompts`), and how it renders a turn. */
const PROMPT_SETS: Record<SeatCapabilities['prompts'], (templates: AgentTemplates, view: SeatView, request: TurnRequest) => ChatMessage[]> = {
  sotopia: (templates, view, request) => paperAgentMessages(templates.agent_paper, view, request),
  native: (templates, view, request) => agentMessages(templates.agent, view, request),
};

/**
 * The messages an LLM seat is sent for one turn. The prompt set the seat's own welcome tells it picks the
 * prompt. The live LLM policy and the fine-tuning export (training/) both call this one function, so an
 * exported example is the request the seat was sent, byte for byte.
 */
export function seatPromptMessages(templates: AgentTemplates, view: SeatView, request: TurnRequest): ChatMessage[] {
  // A game seat's card, notices and moves have one prompt of their own, whatever the protocol (game-prompt.ts).
  if (isGameSeat(view)) return gameMessages(templates.game, view, request);
  return PROMPT_SETS[seatCapabilities(view.welcome.protocol).prompts](templates, view, request);
}

/**
 * Whom this seat may address privately this turn, by the names its own prompt set uses for the others
 * (private-moves.ts); null for two seats, whose replies carry no `to`.
 */
export function seatAddressees(view: SeatView, request: TurnRequest): Addressees | null {
  // In a game the phase decides who hears a move (its team channel or everyone), never the reply.
  if (isGameSeat(view)) return null;
  const nameOf = seatCapabilities(view.welcome.protocol).prompts === 'sotopia' ? paperNames(view) : namesFor(view);
  return addresseesOf(view, nameOf, request.actions);
}
