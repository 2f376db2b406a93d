import { ErrorCode, type Action, type OrchestratorFrame, type ScriptTurn, type TurnRequest } from '../../protocol/index.js';
import type { MemoryClient, MemoryTransport } from '../net/memory-transport.js';

/** An explicit failure a fake agent reports (code default: `policy/failed`). */
export type FakeFailure = { fail: string; code?: ErrorCode };

/** What a fake agent does on a turn request: a move, an explicit failure, or nothing (stay silent). */
export type FakeMove = Action | FakeFailure | null;

export interface FakeAgentOptions {
  pid?: number;
  /** Move for each request (default: speak "hello <turn>"). */
  act?: (request: TurnRequest, received: OrchestratorFrame[]) => FakeMove;
  /** Script mode answer. */
  script?: ScriptTurn[] | FakeFailure;
  /** Reconnect: the resume secret from the seat's latest welcome (the token alone is spent). */
  resume?: string;
}

const META = { policy: 'fake', latencyMs: 1 };

/**
 * A scripted in-process agent for engine tests: joins with its token, answers pings, and plays turns
 * through `act`. Returns the client so tests can inspect what it received or inject bad frames.
 */
export function fakeAgent(transport: MemoryTransport, token: string, opts: FakeAgentOptions = {}): MemoryClient {
  const client = transport.connect();
  const act = opts.act ?? ((r: TurnRequest) => ({ type: 'speak', argument: `hello ${r.turn}` }) as Action);
  client.onFrame((frame) => {
    if (frame.type === 'ping') client.send({ type: 'pong', nonce: frame.nonce });
    if (frame.type === 'turn.request') {
      const move = act(frame, client.frames);
      if (move === null) return;
      if ('fail' in move) client.send({ type: 'turn.fail', turn: frame.turn, error: { code: move.code ?? ErrorCode.PolicyFailed, message: move.fail }, meta: META });
      else client.send({ type: 'turn.act', turn: frame.turn, action: move, meta: META });
    }
    if (frame.type === 'script.request' && opts.script) {
      if ('fail' in opts.script) client.send({ type: 'script.fail', error: { code: opts.script.code ?? ErrorCode.PolicyFailed, message: opts.script.fail }, meta: META });
      else client.send({ type: 'script.submit', turns: opts.script, meta: META });
    }
  });
  client.join(token, opts.pid ?? 1000 + Math.floor(Math.random() * 1000), 'test', opts.resume);
  return client;
}
