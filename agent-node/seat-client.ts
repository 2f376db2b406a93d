import { hostname } from 'node:os';
import { backoffCeiling } from '../llm/retry.js';
import { MAX_FRAME_BYTES, decodeOrchestratorFrame, frameIds, stamp, type AgentFrame, type AgentFrameBody, type OrchestratorFrame, type ScriptRequest, type TurnRequest } from '../protocol/index.js';
import { SeatClientState, type SeatOutcome } from '../seat-client/state.js';
import type { Policy, SeatView } from './policy.js';
import { runScript, runTurn } from './policy-runner.js';
import { SeatViewState } from './seat-view-state.js';
import { CLIENT_NAME, CLIENT_VERSION } from './version.js';
import { terminalSafe } from '../text/terminal.js';
import { WsClient, WsState, type InMemoryDial } from './ws/ws-client.js';

/** How a seat ended, and the codes the client decides: the seat-client state machine's (seat-client/state.ts). */
export { SeatClientCode, type SeatOutcome } from '../seat-client/state.js';

export interface SeatClientOptions {
  /** The orchestrator's agent endpoint, e.g. `ws://127.0.0.1:8080/agent`. */
  url: string;
  /** One-time seat token issued by the orchestrator. */
  token: string;
  /**
   * A resume secret to present with the token on the first connection (a replacement process the
   * supervisor starts for a seat whose process died). Later reconnects use the secret of the latest welcome.
   */
  resume?: string;
  policy: Policy;
  /** Reported in `seat.join`; defaults to this process. */
  pid?: number;
  clientName?: string;
  clientVersion?: string;
  host?: string;
  /**
   * Reconnects after an unexpected close (same token, within the orchestrator's grace period), with
   * exponential backoff. `attempts` applies once the seat was welcomed; before that (nothing listening
   * yet, wrong URL) only `initialAttempts`, so a bad URL fails fast.
   */
  reconnect?: { attempts?: number; initialAttempts?: number; baseDelayMs?: number; maxDelayMs?: number };
  /** Extra time after a turn's deadline before a policy that ignores its AbortSignal is reported as late. */
  deadlineGraceMs?: number;
  /** Time for the TCP (and TLS) connection to the orchestrator (default 10 s). */
  handshakeTimeoutMs?: number;
  /** Time for the orchestrator to answer the opening request on a connection it took (default ANSWER_TIMEOUT_MS). */
  answerTimeoutMs?: number;
  /** Diagnostics (stderr by default in the CLI); never the frames' content. */
  log?: (line: string) => void;
  /** Where the lines about busy closes (4009) go: `log` unless given (a pooled process sums them, busy-close-log.ts). */
  busyLog?: (line: string) => void;
  /** A connection without a network (the start-up snapshot's rehearsal only: agent-node/snapshot-seat-rehearsal.ts). */
  dial?: InMemoryDial;
}

/**
 * How long a seat waits for the orchestrator's answer to its opening request once the connection is taken
 * (the connection itself still has 10 s). The kernel takes a connection whatever the orchestrator's process
 * is doing; on a loaded machine its event loop reaches the request late. With 10 s for the whole handshake,
 * 5 of the paper grid's 1,350 episodes failed at load ~45 ("Opening handshake has timed out after 3
 * attempts", ~30 s in all), and each new attempt only queued another opening request behind the ones given
 * up on. 60 s is a local seat token's life (orchestrator/run/episode-host.ts TOKEN_TTL_MS): a later join is
 * refused anyway. A server that takes connections and never answers still fails the seat, later.
 */
export const ANSWER_TIMEOUT_MS = 60_000;

/** A seat being played. */
export interface SeatSession {
  /** Resolves once the seat's connection has ended, with how it ended. Never rejects. */
  readonly done: Promise<SeatOutcome>;
  /** What the seat knows so far (null before the welcome). */
  view(): SeatView | null;
  /** Stops playing: closes the connection; `done` resolves `failed` unless the seat already ended. */
  close(reason?: string): void;
}


/**
 * Plays one seat over a WebSocket: joins with the token, keeps the seat's view from the frames it
 * receives, answers heartbeats, asks the policy for each requested move (or the whole script) and sends
 * the reply, and reconnects with the same token after an unexpected close.
 */
export function playSeat(options: SeatClientOptions): SeatSession {
  const client = new SeatClient(options);
  client.connect();
  return { done: client.done, view: () => client.state.snapshot(), close: (reason) => client.close(reason) };
}

interface Pending {
  reply?: AgentFrameBody;
  /** Connection number the reply went out on. */
  sentOn?: number;
}

/**
 * The socket side of a seat: the connection, the policy runs and the replies. What the seat's client
 * knows and decides (joined, waiting, my turn, reconnecting, ended) is the pure machine `seat`.
 */
class SeatClient {
  readonly state = new SeatViewState();
  readonly done: Promise<SeatOutcome>;
  private resolveDone!: (outcome: SeatOutcome) => void;
  private readonly nextId = frameIds('a');
  private readonly log: (line: string) => void;
  private readonly busyLog: (line: string) => void;
  private readonly seat: SeatClientState;
  private readonly stop = new AbortController();
  private ws: WsClient | null = null;
  private joinId = '';
  private finished = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private closeTimer: NodeJS.Timeout | undefined;
  private readonly turns = new Map<number, Pending>();
  private script: Pending | null = null;

  constructor(private readonly opts: SeatClientOptions) {
    this.done = new Promise((resolve) => (this.resolveDone = resolve));
    // Every line may quote the orchestrator (error frames, close reasons), which for `parley agent` is a remote
    // server: it reaches the terminal or the log without escape sequences or line breaks of its own.
    const sink = opts.log ?? (() => {});
    this.log = (line) => sink(terminalSafe(line));
    const busy = opts.busyLog ?? sink;
    this.busyLog = (line) => busy(terminalSafe(line));
    const backoff = { baseMs: opts.reconnect?.baseDelayMs ?? 200, maxMs: opts.reconnect?.maxDelayMs ?? 3000 };
    this.seat = new SeatClientState({
      now: () => performance.now(),
      attempts: opts.reconnect?.attempts ?? 5,
      initialAttempts: opts.reconnect?.initialAttempts ?? 2,
      backoffMs: (failures) => backoffCeiling(failures, backoff),
      target: opts.url,
      ...(opts.resume !== undefined ? { resume: opts.resume } : {}),
    });
  }

  connect(): void {
    if (this.finished) return;
    const conn = this.seat.connecting();
    // Our own client (agent-node/ws/), not `ws`: a seat's connection lives one episode and carries a few
    // dozen small frames, and `ws`'s handshake through node:http, its streams and byte-wise masking were
    // ~10 % of a warm turn's CPU (bench/agent-profile.md, seventh pass). No extension is offered.
    const ws: WsClient = new WsClient(this.opts.url, { maxPayload: MAX_FRAME_BYTES, handshakeTimeoutMs: this.opts.handshakeTimeoutMs ?? 10_000, answerTimeoutMs: this.opts.answerTimeoutMs ?? ANSWER_TIMEOUT_MS, ...(this.opts.dial ? { dial: this.opts.dial } : {}) }, {
      open: () => this.onOpen(ws),
      message: (data) => this.onMessage(data, conn),
      error: (err) => {
        this.seat.error(err.message);
        this.log(`connection error: ${err.message}`);
      },
      close: (code, reason) => {
        if (conn === this.seat.connection) this.onClose(code, reason);
      },
    });
    this.ws = ws;
  }

  private onOpen(ws: WsClient): void {
    this.seat.opened();
    this.joinId = this.nextId();
    this.sendRaw(ws, stamp<AgentFrame>({
      type: 'seat.join',
      token: this.opts.token,
      ...(this.seat.resume !== undefined ? { resume: this.seat.resume } : {}),
      client: {
        name: this.opts.clientName ?? CLIENT_NAME,
        version: this.opts.clientVersion ?? CLIENT_VERSION,
        policy: this.opts.policy.spec.slice(0, 200),
        pid: this.opts.pid ?? process.pid,
        host: (this.opts.host ?? hostname()).slice(0, 200),
      },
    }, this.joinId));
  }

  /** A message's bytes are decoded at once: the client reuses its read buffer after this returns. */
  private onMessage(data: Buffer, conn: number): void {
    if (conn !== this.seat.connection) return;
    const decoded = decodeOrchestratorFrame(data);
    if (!decoded.ok) {
      this.log(`ignored a bad frame from the orchestrator (${decoded.code}): ${decoded.message}`);
      return;
    }
    this.onFrame(decoded.frame, conn);
  }

  close(reason = 'closed by the agent'): void {
    if (this.finished) return;
    const outcome = this.seat.closeLocally(reason);
    if (outcome) this.finish(outcome);
  }

  private onFrame(frame: OrchestratorFrame, conn: number): void {
    const effect = this.seat.frame(frame, conn);
    switch (frame.type) {
      case 'seat.welcome':
        this.state.welcome(frame);
        this.flushUnsent();
        return;
      case 'peer.state':
        this.state.peerState(frame);
        return;
      case 'turn.event':
        this.state.event(frame);
        return;
      case 'game.notice':
        this.state.notice(frame);
        return;
      case 'turn.request':
        this.onTurnRequest(frame);
        return;
      case 'script.request':
        this.onScriptRequest(frame);
        return;
      case 'episode.end':
        this.opts.policy.ended?.(this.state.snapshot(), frame.reason);
        this.closeSocket(1000, 'episode ended');
        return;
      case 'error':
        this.log(`orchestrator error ${frame.code}: ${frame.message}`);
        if (effect === 'close_refused') this.closeSocket(1000, 'join refused');
        return;
      case 'ping':
        this.send({ type: 'pong', nonce: frame.nonce });
        return;
    }
  }

  private onTurnRequest(frame: TurnRequest): void {
    const known = this.turns.get(frame.turn);
    if (known) {
      // Asked again (after a reconnect): resend a finished reply not yet sent on this connection.
      if (known.reply && known.sentOn !== this.seat.connection) this.deliver(known);
      return;
    }
    const pending: Pending = {};
    this.turns.set(frame.turn, pending);
    void runTurn(this.opts.policy, this.state.snapshot(), frame, { graceMs: this.opts.deadlineGraceMs ?? 1000, signal: this.stop.signal }).then((reply) => {
      pending.reply = reply;
      this.deliver(pending);
    });
  }

  private onScriptRequest(frame: ScriptRequest): void {
    if (this.script) {
      if (this.script.reply && this.script.sentOn !== this.seat.connection) this.deliver(this.script);
      return;
    }
    const pending: Pending = {};
    this.script = pending;
    void runScript(this.opts.policy, frame, { graceMs: this.opts.deadlineGraceMs ?? 1000, signal: this.stop.signal }).then((reply) => {
      pending.reply = reply;
      this.deliver(pending);
    });
  }

  /** Sends a finished reply if the current connection is open; otherwise it waits for the next welcome. */
  private deliver(pending: Pending): void {
    if (this.finished || !pending.reply || pending.sentOn === this.seat.connection) return;
    if (this.send(pending.reply)) {
      pending.sentOn = this.seat.connection;
      this.seat.acted();
    }
  }

  private flushUnsent(): void {
    for (const pending of this.turns.values()) if (pending.reply && pending.sentOn === undefined) this.deliver(pending);
    if (this.script?.reply && this.script.sentOn === undefined) this.deliver(this.script);
  }

  private send(body: AgentFrameBody): boolean {
    const ws = this.ws;
    if (!ws || ws.readyState !== WsState.Open) return false;
    return this.sendRaw(ws, stamp<AgentFrame>(body, this.nextId()));
  }

  private sendRaw(ws: WsClient, frame: AgentFrame): boolean {
    try {
      return ws.send(JSON.stringify(frame));
    } catch (err) {
      this.log(`send failed: ${(err as Error).message}`);
      return false;
    }
  }

  private onClose(code: number, reason: string): void {
    this.ws = null;
    if (this.finished) return;
    const next = this.seat.closed(code, reason);
    if (next.kind === 'finish') return this.finish(next.outcome);
    if (next.cause === 'busy') this.busyLog(`the orchestrator had too many connections waiting to join and closed this one (${next.why}); joining again in ${next.delayMs} ms (${next.attempt} of ${next.of})`);
    else if (next.cause === 'rate_limited') this.log(`the orchestrator asked this seat to wait before joining again (${next.why}); joining again in ${next.delayMs} ms (attempt ${next.attempt} of ${next.of})`);
    else this.log(`connection lost (${next.why}); reconnecting in ${next.delayMs} ms (attempt ${next.attempt} of ${next.of})`);
    this.retryTimer = setTimeout(() => this.connect(), next.delayMs);
  }

  private closeSocket(code: number, reason: string): void {
    const ws = this.ws;
    if (!ws) return;
    ws.close(code, reason);
    // A peer that never completes the closing handshake must not keep the seat open.
    this.closeTimer = setTimeout(() => ws.terminate(), 2000);
    this.closeTimer.unref?.();
  }

  private finish(outcome: SeatOutcome): void {
    if (this.finished) return;
    this.finished = true;
    clearTimeout(this.retryTimer);
    this.stop.abort(new Error('seat finished'));
    const ws = this.ws;
    const resolve = () => {
      clearTimeout(this.closeTimer);
      this.resolveDone(outcome);
    };
    if (ws && ws.readyState !== WsState.Closed) {
      ws.onceClosed(resolve);
      if (ws.readyState === WsState.Connecting) ws.terminate();
      else this.closeSocket(1000, outcome.status === 'ended' ? 'episode ended' : 'agent closing');
    } else {
      resolve();
    }
  }
}
