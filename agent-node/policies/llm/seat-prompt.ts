import type { ChatMessage } from '../../../llm/index.js';
import type { TurnRequest } from '../../../protocol/index.js';
import type { SeatView } from '../../policy.js';
import { agentMessages } from './agent-prompt.js';
import { paperAgentMessages } from './paper-prompt.js';
import type { Templates } from './templates.js';

/** The two agent templates a seat's prompt can come from (`agent.md` under `parley`, `agent-paper.md` under `paper`). */
export type AgentTemplates = Pick<Templates, 'agent' | 'agent_paper'>;

/**
 * The messages an LLM seat is sent for one turn. The protocol named in the seat's own welcome picks the
 * prompt. The live LLM policy and the fine-tuning export (training/) both call this one function, so an
 * exported example is the request the seat was sent, byte for byte.
 */
export function seatPromptMessages(templates: AgentTemplates, view: SeatView, request: TurnRequest): ChatMessage[] {
  return view.welcome.protocol?.name === 'paper'
    ? paperAgentMessages(templates.agent_paper, view, request)
    : agentMessages(templates.agent, view, request);
}
