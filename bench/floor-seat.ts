/**
 * The floor seat (issue 44, bench/floor.md): the cheapest process that plays a pooled seat the way the
 * protocol asks, to measure what any seat process costs on this machine. Started by the orchestrator's
 * own pool in place of the agent entry (RunProbes.workerEntry), so it is spawned, warmed and handed seats
 * exactly as Parley's agent processes are. It speaks the pool's IPC (protocol/worker-ipc.ts: ready, warm
 * → warmed, host, drop, released) and, per seat, the agent protocol over a hand-written WebSocket
 * (floor-ws.ts) on a raw `net` socket: `seat.join` with the token, `pong` for every `ping`, a `turn.act`
 * for every `turn.request`, the closing handshake at `episode.end`.
 *
 * A turn: the request frame parsed (JSON.parse: a seat must read every frame to know the conversation),
 * the conversation line appended for every `turn.event`, one HTTP/1.1 POST on a kept-alive socket
 * (floor-http.ts) with a body as long as the real seat's at that turn (REAL_BODY_BYTES), the answer parsed
 * with JSON.parse once and the model's move (its content, a JSON object) once more, the act sent.
 * What a real seat does and this does not: render the prompt from the scenario and profile, validate
 * frames and the model's answer (zod), record the call in a cassette, retry, reconnect, report usage
 * costs beyond the answer's counts. That is what "floor" means here. Bench-only: not the product.
 */
import { appendFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { FloorHttp } from './floor-http.js';
import { answerAccepted, encodeClose, encodeFrame, encodeText, FrameReader, handshakeKey, Op, openingRequest } from './floor-ws.js';
import { floorBody } from './floor-body.js';

interface HostMessage {
  type: 'host';
  url: string;
  token: string;
  policy: { spec: string; baseURL?: string; apiKeyEnv?: string };
}

const tell = (m: object) => process.send?.(m);
const log = (line: string) => process.stderr.write(`[floor-seat ${process.pid}] ${line}\n`);

/** One HTTP client a model origin, shared by the process's seats (as the real seat's pool is). */
const clients = new Map<string, FloorHttp>();
function clientFor(policy: HostMessage['policy']): FloorHttp {
  const base = policy.baseURL ?? 'http://127.0.0.1/v1';
  let c = clients.get(base);
  if (!c) {
    const u = new URL(base);
    c = new FloorHttp(u.hostname, Number(u.port || 80), `${u.pathname.replace(/\/$/, '')}/chat/completions`, process.env[policy.apiKeyEnv ?? 'OPENAI_API_KEY'] ?? '');
    clients.set(base, c);
  }
  return c;
}

const seats = new Map<string, (reason: string) => void>();
/** At the first welcome of this process, its CPU (ms) and faults from spawn to joined go to PARLEY_FLOOR_JOINED_LOG (bench/floor-run.ts). */
let joinedOnce = false;

/** What a seat's frame handlers share (play() makes it). */
interface Seat {
  m: HostMessage;
  model: string;
  http: FloorHttp;
  send: (frame: object) => void;
  closeWith: (code: number, reason: string) => void;
  conversation: string;
  who: string;
  ended: boolean;
}

function play(m: HostMessage): void {
  const url = new URL(m.url);
  const socket: Socket = connect(Number(url.port), url.hostname);
  socket.setNoDelay(true);
  const { key, accept } = handshakeKey();
  const reader = new FrameReader();
  let open = false;
  let head: Buffer = Buffer.alloc(0);
  let next = 0;
  let released = false;
  const seat: Seat = {
    m,
    model: m.policy.spec.slice(m.policy.spec.indexOf(':') + 1),
    http: clientFor(m.policy),
    send: (frame) => socket.write(encodeText(JSON.stringify({ v: 1, id: `a${++next}`, ...frame }))),
    closeWith: (code, reason) => {
      if (socket.writable) socket.end(encodeClose(code, reason));
      // A peer that never answers the close does not keep the seat.
      setTimeout(() => socket.destroy(), 2000).unref();
    },
    conversation: '',
    who: '',
    ended: false,
  };
  const release = (ok: boolean, error?: string) => {
    if (released) return;
    released = true;
    seats.delete(m.token);
    tell(error === undefined ? { type: 'released', token: m.token, ok } : { type: 'released', token: m.token, ok, error });
  };
  seats.set(m.token, (reason) => seat.closeWith(1000, reason));

  socket.write(openingRequest(url.host, url.pathname, key));
  socket.on('data', (chunk: Buffer) => {
    if (!open) {
      head = head.length ? Buffer.concat([head, chunk]) : chunk;
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      if (!answerAccepted(head.toString('latin1', 0, end), accept)) {
        log(`opening handshake refused: ${head.toString('latin1', 0, Math.min(end, 80))}`);
        return void socket.destroy();
      }
      open = true;
      chunk = head.subarray(end + 4);
      seat.send({ type: 'seat.join', token: m.token, client: { name: 'parley-floor-seat', version: '0', policy: m.policy.spec, pid: process.pid } });
    }
    for (const f of reader.push(chunk)) {
      if (f.op === Op.text) onFrame(seat, JSON.parse(f.payload.toString('utf8')));
      else if (f.op === Op.ping) socket.write(encodeFrame(Op.pong, f.payload));
      else if (f.op === Op.close) seat.closeWith(f.payload.length >= 2 ? f.payload.readUInt16BE(0) : 1000, '');
    }
  });
  socket.on('error', (err) => log(`socket error: ${err.message}`));
  socket.on('close', () => release(seat.ended, seat.ended ? undefined : 'connection closed before the episode ended'));
}

function onFrame(seat: Seat, f: { type: string; episodeId?: string; turn?: number; nonce?: string; seat?: string; action?: { argument: string }; message?: string }): void {
  switch (f.type) {
    case 'seat.welcome':
      seat.who = `seat ${f.seat} of ${f.episodeId}`;
      if (!joinedOnce && process.env.PARLEY_FLOOR_JOINED_LOG) {
        joinedOnce = true;
        const cpu = process.cpuUsage();
        appendFileSync(process.env.PARLEY_FLOOR_JOINED_LOG, `${((cpu.user + cpu.system) / 1000).toFixed(1)} ${process.resourceUsage().minorPageFault}\n`);
      }
      return;
    case 'turn.event':
      seat.conversation += `Turn #${f.turn}: ${f.seat} said: "${f.action!.argument}"\n`;
      return;
    case 'turn.request':
      return void act(seat, f.turn!);
    case 'ping':
      return void seat.send({ type: 'pong', nonce: f.nonce });
    case 'episode.end':
      seat.ended = true;
      return seat.closeWith(1000, 'episode ended');
    case 'error':
      return void log(`orchestrator error: ${f.message}`);
  }
}

async function act(seat: Seat, turn: number): Promise<void> {
  const t0 = performance.now();
  const spec = seat.m.policy.spec;
  try {
    const a = await seat.http.post(floorBody(seat.model, turn, seat.who, seat.conversation));
    if (a.status !== 200) throw new Error(`model answered ${a.status}`);
    const completion = JSON.parse(a.body) as { choices: { message: { content: string } }[]; usage: { prompt_tokens: number; completion_tokens: number } };
    const move = JSON.parse(completion.choices[0]!.message.content) as { action_type: string; argument: string };
    const usage = { prompt: completion.usage.prompt_tokens, completion: completion.usage.completion_tokens, cached: 0 };
    const meta = { policy: spec, provider: 'openai', model: seat.model, params: { temperature: 0.7 }, latencyMs: Math.round(performance.now() - t0), usage };
    seat.send({ type: 'turn.act', turn, action: { type: move.action_type, argument: move.argument }, meta });
  } catch (err) {
    seat.send({ type: 'turn.fail', turn, error: { code: 'llm/provider_error', message: (err as Error).message.slice(0, 500) }, meta: { policy: spec, latencyMs: Math.round(performance.now() - t0) } });
  }
}

process.on('message', (m: { type: string; token?: string; reason?: string }) => {
  if (m.type === 'warm') return void tell({ type: 'warmed' });
  if (m.type === 'drop') return void seats.get(m.token!)?.(m.reason ?? 'dropped');
  if (m.type === 'host') play(m as HostMessage);
});
process.on('disconnect', () => process.exit(0));
tell({ type: 'ready' });
