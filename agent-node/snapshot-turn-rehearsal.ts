import { decodeOrchestratorFrame, type SeatWelcome, type TurnEvent, type TurnRequest } from '../protocol/index.js';
import { defaultOptions } from '../llm/options.js';
import { rehearsalConnection } from '../llm/http1-pool.js';
import { createOpenAiClient } from '../llm/openai-client.js';
import { LlmPolicy } from './policies/llm/llm-policy.js';
import { runTurn } from './policy-runner.js';
import { SeatViewState } from './seat-view-state.js';
import { parseTemplate, TEMPLATE_PLACEHOLDERS, type TemplateName, type Templates } from './policies/llm/templates.js';
import { rehearsalFrames } from './snapshot-rehearsal.js';
import { rehearseSeatConnection } from './snapshot-seat-rehearsal.js';

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
 * process, per seat), the client's connection is in memory, and everything made here is thrown away.
 */
const templates = (): Templates => {
  const names = Object.keys(TEMPLATE_PLACEHOLDERS) as TemplateName[];
  // Every placeholder a template may use, in a system and a user part, so each value is rendered.
  const source = (n: TemplateName) => `<!-- system -->\nr\n<!-- user -->\n${TEMPLATE_PLACEHOLDERS[n].map((p) => `{{${p}}}`).join('\n')}\n`;
  return Object.fromEntries(names.map((n) => [n, parseTemplate(n, `rehearsal/${n}.md`, source(n))])) as Templates;
};

/** Where the rehearsal's client sends its requests: answered in memory (rehearsalConnection), never dialled. */
const REHEARSAL_BASE_URL = 'http://rehearsal.invalid/v1';

/**
 * What the made-up model answers every request with: the same speak move as JSON, the form both protocols'
 * seats ask a model for, as an OpenAI-compatible server sends a chat completion.
 */
function rehearsalAnswer(): Buffer {
  const body = JSON.stringify({
    id: 'rehearsal',
    object: 'chat.completion',
    created: 0,
    model: 'rehearsal',
    choices: [{ index: 0, message: { role: 'assistant', content: JSON.stringify({ action_type: 'speak', argument: 'r' }) }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  });
  const head = ['HTTP/1.1 200 OK', 'content-type: application/json', `content-length: ${Buffer.byteLength(body)}`, 'connection: keep-alive', 'keep-alive: timeout=5', '', ''].join('\r\n');
  return Buffer.from(head + body);
}

const event = (turn: number, seat: string): TurnEvent => ({ v: 1, id: `e${turn}`, type: 'turn.event', turn, seat, action: { type: 'speak', argument: 'r' } });

/**
 * Plays one turn per made-up welcome, then one whole seat of each protocol over the seat's WebSocket client
 * in memory (snapshot-seat-rehearsal.ts: the join's code); resolves to how many turns gave a move and how
 * many seats ended with their move sent.
 */
export async function rehearseSeatTurns(): Promise<{ turns: number; seats: number }> {
  // The seat's real client on the light HTTP path (llm/openai-client.ts, openai-http.ts, http1-pool.ts): the
  // request's bytes, the answer's parse and the completion's reading are compiled here, not in each process's
  // first episode (about half of what it still compiled: bench/start-up.md); only the socket is in memory.
  const client = createOpenAiClient({ model: 'rehearsal', apiKey: 'rehearsal', baseURL: REHEARSAL_BASE_URL, options: defaultOptions('openai'), sampling: {} });
  const removeConnection = rehearsalConnection(new URL(REHEARSAL_BASE_URL), rehearsalAnswer());
  const policy = new LlmPolicy({ spec: 'openai:rehearsal', params: {} }, templates(), client);
  const request: TurnRequest = { v: 1, id: 'q', type: 'turn.request', turn: 2, actions: ['none', 'speak', 'non-verbal communication', 'action', 'leave'], deadlineMs: 60_000 };
  let moves = 0;
  let seats = 0;
  try {
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
    const played = new Set<string>();
    for (const raw of rehearsalFrames()) {
      const welcome = raw as { type: string; protocol?: { name: string } };
      if (welcome.type !== 'seat.welcome' || !welcome.protocol || played.has(welcome.protocol.name)) continue;
      played.add(welcome.protocol.name);
      const seat = await rehearseSeatConnection(policy, welcome, { events: [event(0, 'b'), event(1, 'a')], request, end: { v: 1, id: 'z', type: 'episode.end', reason: 'max_turns' } });
      if (seat.outcome.status === 'ended' && seat.moves === 1) seats += 1;
    }
  } finally {
    // Whatever the rehearsal threw, neither the policy nor the in-memory connection stays in the snapshot.
    try {
      await policy.close();
    } finally {
      removeConnection();
    }
  }
  return { turns: moves, seats };
}
