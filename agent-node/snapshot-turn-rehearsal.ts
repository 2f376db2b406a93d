import { decodeOrchestratorFrame, type SeatWelcome, type TurnEvent, type TurnRequest } from '../protocol/index.js';
import type { ChatResponse, LlmClient } from '../llm/index.js';
import { LlmPolicy } from './policies/llm/llm-policy.js';
import { runTurn } from './policy-runner.js';
import { SeatViewState } from './seat-view-state.js';
import { parseTemplate, TEMPLATE_PLACEHOLDERS, type TemplateName, type Templates } from './policies/llm/templates.js';
import { rehearsalFrames } from './snapshot-rehearsal.js';

/**
 * One LLM seat turn per made-up welcome (snapshot-rehearsal.ts: each protocol and task kind), played while
 * the start-up snapshot is built (snapshot-entry.ts) on made-up templates and a client that answers at once.
 *
 * Why: a process's first turn compiled every function on its way (the view kept from the frames, prompt
 * rendering, the history lines, the reply's parse and repair ladder, the turn's metadata, the reply frame's
 * check): ~30 ms of CPU in each agent process, against ~2 ms for a later turn (bench/start-up.md, contract 2).
 * At one seat a process, 100 processes pay it during the
 * pool's ramp, on the cores the first episodes play on. The snapshot keeps the bytecode of every function
 * called while it is built, so a process from the blob starts its first turn with it. Nothing here reads a
 * file, the environment or the network: the templates are invented (the real ones are read by each
 * process, per seat), the client is in memory, and everything made here is thrown away.
 */
const templates = (): Templates => {
  const names = Object.keys(TEMPLATE_PLACEHOLDERS) as TemplateName[];
  // Every placeholder a template may use, in a system and a user part, so each value is rendered.
  const source = (n: TemplateName) => `<!-- system -->\nr\n<!-- user -->\n${TEMPLATE_PLACEHOLDERS[n].map((p) => `{{${p}}}`).join('\n')}\n`;
  return Object.fromEntries(names.map((n) => [n, parseTemplate(n, `rehearsal/${n}.md`, source(n))])) as Templates;
};

/** Answers every request with the same speak move as JSON, the form both protocols' seats ask a model for. */
const client: LlmClient = {
  provider: 'openai',
  model: 'rehearsal',
  chat: (): Promise<ChatResponse> =>
    Promise.resolve({
      content: JSON.stringify({ action_type: 'speak', argument: 'r' }),
      usage: { prompt: 1, completion: 1, cached: 0 },
      model: 'rehearsal',
      latencyMs: 0,
      retries: 0,
      finishReason: 'stop',
    }),
};

const event = (turn: number, seat: string): TurnEvent => ({ v: 1, id: `e${turn}`, type: 'turn.event', turn, seat, action: { type: 'speak', argument: 'r' } });

/** Plays one turn per made-up welcome; resolves to how many gave a move. */
export async function rehearseSeatTurns(): Promise<number> {
  const policy = new LlmPolicy({ spec: 'openai:rehearsal', params: {} }, templates(), client);
  const request: TurnRequest = { v: 1, id: 'q', type: 'turn.request', turn: 2, actions: ['none', 'speak', 'non-verbal communication', 'action', 'leave'], deadlineMs: 60_000 };
  let moves = 0;
  for (const raw of rehearsalFrames()) {
    const decoded = decodeOrchestratorFrame(JSON.stringify(raw));
    if (!decoded.ok || decoded.frame.type !== 'seat.welcome') continue;
    // As the seat's client keeps its view and asks for a move (seat-client.ts): the view from the frames,
    // the move through the runner, which checks the reply frame.
    const state = new SeatViewState();
    state.welcome(decoded.frame as SeatWelcome);
    state.event(event(0, 'b'));
    state.event(event(1, (decoded.frame as SeatWelcome).seat));
    const reply = await runTurn(policy, state.snapshot(), request, { graceMs: 1_000, signal: new AbortController().signal });
    if (reply.type === 'turn.act') moves += 1;
  }
  await policy.close();
  return moves;
}
