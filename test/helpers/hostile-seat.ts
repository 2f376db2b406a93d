import { ErrorCode } from '../../protocol/index.js';
import { hostile } from './hostile-payload.js';
import { WsAgent } from './ws-agent.js';

/** What a hostile remote agent does with its seat once in. */
export type HostilePlan =
  /** Plays every turn it is asked for: its `n`-th move (0-based) is `moves[n]`; past the end it leaves. */
  | { kind: 'moves'; moves: Array<'speak' | 'gesture' | 'fail' | 'leave'> }
  /** Script writer: submits a two-turn script. */
  | { kind: 'script' }
  /** Script writer: reports a failure. */
  | { kind: 'script-fail' };

export interface HostileSeat {
  agent: WsAgent;
  /** How the server answered the first join, whose client fields carried line breaks. */
  firstJoin: { close: number; errors: string[] };
  /** Error codes the server answered the joined connection with, in order. */
  refusals(): string[];
}

/** A payload with its line breaks made spaces: markup the one-line fields of the edge admit. */
const oneLine = (field: string, max: number) => hostile(field, max).replace(/\n/g, ' ');

/** A client's self-description, every field a payload (with or without line breaks). */
const clientOf = (tag: string, lines: boolean) => {
  const p = lines ? hostile : oneLine;
  return { name: p(`name-${tag}`, 100), version: p(`version-${tag}`, 50), policy: p(`client-policy-${tag}`, 200), host: p(`host-${tag}`, 200) };
};

/** A move's provenance, every field a remote agent controls a payload; `lines`: with line breaks and a hostile model name. */
export function hostileMeta(tag: string, lines: boolean): Record<string, unknown> {
  const p = lines ? hostile : oneLine;
  return {
    policy: p(`policy-${tag}`, 200),
    provider: 'openai',
    model: lines ? hostile(`model-${tag}`, 200) : 'gpt-4',
    latencyMs: 5,
    usage: { prompt: 10, completion: 5, cached: 0 },
    // Values are free text (a `\n` stop sequence is a real parameter): they keep their line breaks.
    params: { [p('pk', 64)]: hostile(`param-${tag}`, 400), nested: { deep: [hostile(`nested-${tag}`, 400)] } },
  };
}

/**
 * A hostile remote agent over a raw WebSocket, putting a payload in every field a remote agent controls:
 * `seat.join`'s client (name, version, policy, host), each move's argument, `meta` (policy, model,
 * params' names and values), a failure's code and message, a script. Each kind of field is tried first
 * as the worst it can be (line breaks, control-free markup in codes and model names), then as what the
 * edge admits, so the episode goes on and its record carries every payload the edge let through.
 */
export async function hostileSeat(url: string, token: string, tag: string, plan: HostilePlan): Promise<HostileSeat> {
  const first = await WsAgent.connect(url);
  first.send({ type: 'seat.join', token, client: clientOf(tag, true) });
  const { code } = await first.closed;
  const firstJoin = { close: code, errors: first.errors() };

  const agent = await WsAgent.connect(url);
  agent.send({ type: 'seat.join', token, client: clientOf(tag, false) });
  let moves = 0;
  let triedLines = false;
  agent.onFrame((f) => {
    if (f.type === 'turn.request' && plan.kind === 'moves') {
      const turn = f.turn as number;
      if (!triedLines) {
        triedLines = true;
        agent.send({ type: 'turn.act', turn, action: { type: 'speak', argument: 'x' }, meta: hostileMeta(tag, true) });
      }
      const move = plan.moves[moves++] ?? 'leave';
      const meta = hostileMeta(`${tag}-t${turn}`, false);
      if (move === 'fail') {
        agent.send({ type: 'turn.fail', turn, error: { code: `policy/x\n<img src=//evil.example/c>`, message: hostile(`fail-${tag}`, 2000) }, meta });
        agent.send({ type: 'turn.fail', turn, error: { code: ErrorCode.PolicyFailed, message: hostile(`fail-${tag}`, 2000) }, meta });
        return;
      }
      const actions = f.actions as string[];
      const type = move === 'leave' && actions.includes('leave') ? 'leave' : move === 'gesture' ? 'non-verbal communication' : 'speak';
      agent.send({ type: 'turn.act', turn, action: { type, argument: type === 'leave' ? '' : hostile(`${move}-${tag}-t${turn}`, 8000) }, meta });
    }
    if (f.type === 'script.request' && plan.kind === 'script') {
      const turns = ['agent1', 'agent2'].map((seat, i) => ({ seat, action: { type: 'speak', argument: hostile(`script-${tag}-${i}`, 8000) } }));
      // An unknown seat would be quoted in the termination's detail: a line break there is refused at the edge.
      agent.send({ type: 'script.submit', turns: [{ ...turns[0]!, seat: hostile(`seat-${tag}`, 64) }, turns[1]], meta: hostileMeta(`${tag}-script`, false) });
      agent.send({ type: 'script.submit', turns, meta: hostileMeta(`${tag}-script`, true) });
      agent.send({ type: 'script.submit', turns, meta: hostileMeta(`${tag}-script`, false) });
    }
    if (f.type === 'script.request' && plan.kind === 'script-fail') {
      agent.send({ type: 'script.fail', error: { code: `script/x\n# HEADING-code`, message: hostile(`script-fail-${tag}`, 2000) }, meta: hostileMeta(`${tag}-sf`, false) });
      agent.send({ type: 'script.fail', error: { code: ErrorCode.PolicyFailed, message: hostile(`script-fail-${tag}`, 2000) }, meta: hostileMeta(`${tag}-sf`, false) });
    }
  });
  // A live seat is welcomed; the script writer gets its script.request instead.
  await agent.next((f) => f.type === 'seat.welcome' || f.type === 'script.request' || f.type === 'error');
  return { agent, firstJoin, refusals: () => agent.errors() };
}
