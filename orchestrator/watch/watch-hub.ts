import type { EpisodeRecord, TurnRecord } from '../../protocol/index.js';
import type { WatchMessage, WatchRow, WatchSummary, WatchTurn } from '../../protocol/watch.js';
import { callCost, pricedCalls, type PricedCall } from '../run/episode-cost.js';

/** One watcher's connection, as the hub needs it (watch-endpoint.ts adapts a socket.io socket). */
export interface WatchSink {
  /** Packets queued to this watcher and not yet written (its socket's buffer). */
  backlog(): number;
  /** Bytes queued to this watcher and not yet written: the engine's write buffer and the socket's buffered amount. */
  backlogBytes(): number;
  send(message: WatchMessage): void;
  /** Disconnects the watcher, telling it why. */
  close(reason: string): void;
}

/**
 * What bounds a watched run's memory and traffic, whatever the watchers do. A study of 2,700 episodes
 * keeps one small row per episode; turns and ledgers only for episodes in flight and the latest
 * finished ones (their files are in the run directory for the rest).
 */
export const WATCH_LIMITS = {
  /** A watcher whose socket has this many packets waiting is too slow: dropped (a reload catches up) rather than buffered without end. */
  maxBacklog: 256,
  /**
   * The same in bytes (a packet may be large): with 16 watchers, at most 16 × 4 MB queued in serve. Row
   * lists (2,700 episodes ≈ 600 KB) fit; an opened episode never counts here, it is paced (`chunkBytes`).
   */
  maxBacklogBytes: 4 * 1024 * 1024,
  /**
   * An opened episode's turns and ledger lines go out in messages of about this size, the next one only
   * while less than this is queued to the watcher: a watcher that stops reading holds one chunk, not the
   * episode (30 opens of a 2 MB episode once queued 60 MB; issue 35).
   */
  chunkBytes: 64 * 1024,
  /** Watchers at once (a researcher and a few colleagues). */
  maxWatchers: 16,
  /** Finished episodes whose turns and ledgers stay viewable. */
  keepFinished: 20,
  /** Bytes of ledger lines kept per episode (a turn is a few KB; 20 turns × 2 seats fit many times). */
  maxDetailBytes: 2 * 1024 * 1024,
  /** Rows per `rows` message on connect (one message per chunk, so no single packet is huge). */
  rowsPerMessage: 500,
  /** Row updates are coalesced and sent at most this often. */
  flushMs: 250,
} as const;

export type WatchLimits = { [K in keyof typeof WATCH_LIMITS]: number };

interface Detail {
  turns: WatchTurn[];
  ledgers: Map<string, string[]>;
  bytes: number;
  cut: boolean;
  /** Priced calls seen live (the record replaces them at the end). */
  tokens: number;
  usd: number;
  unpriced: boolean;
}

/** How far an opened episode's detail has been sent to one watcher: turns and lines per seat. */
interface Cursor {
  turns: number;
  lines: Map<string, number>;
}

interface SinkState {
  open: string | null;
  cursor: Cursor | null;
}

/**
 * Where a finished run's details come from when no episode is in flight (`parley watch DIR`): an
 * episode's turn records and each seat's ledger lines, at most `maxBytes` of them (`cut` when more).
 */
export type WatchArchive = (episodeId: string, maxBytes: number) => { turns: TurnRecord[]; ledgers: Record<string, string[]>; cut: boolean } | null;

/** Where a planned episode comes from: its id, mode, scenario name and turn limit. */
export interface WatchPlan {
  episodeId: string;
  mode: string;
  scenario: string;
  maxTurns: number;
}

/**
 * The live state of a watched run, fed by the host (episodes planned, prepared, ledger lines, turns,
 * records) and fanned out to watchers. It knows nothing of sockets: a watcher is a WatchSink. Row
 * changes are coalesced; an opened episode's turns and ledger lines are sent as they happen. Nothing
 * flows the other way: a watcher can only choose which episode it is sent (`open`).
 */
export class WatchHub {
  private readonly limits: WatchLimits;
  private readonly rows = new Map<string, WatchRow>();
  private readonly details = new Map<string, Detail>();
  private readonly finishedOrder: string[] = [];
  private readonly dirty = new Set<string>();
  private readonly sinks = new Map<WatchSink, SinkState>();
  private total = 0;
  private ended = false;
  private flushPending = false;
  private readonly schedule: (fn: () => void, ms: number) => void;

  private readonly archive: WatchArchive | undefined;

  constructor(private readonly runId: string, opts: { limits?: Partial<WatchLimits>; schedule?: (fn: () => void, ms: number) => void ; archive?: WatchArchive } = {}) {
    this.limits = { ...WATCH_LIMITS, ...opts.limits };
    this.archive = opts.archive;
    this.schedule = opts.schedule ?? ((fn, ms) => void setTimeout(fn, ms).unref());
  }

  /** Watchers connected now. */
  get watchers(): number {
    return this.sinks.size;
  }

  /** Episodes the run will play (listed as queued). */
  plan(plans: readonly WatchPlan[]): void {
    for (const p of plans) {
      if (this.rows.has(p.episodeId)) continue;
      this.rows.set(p.episodeId, { episodeId: p.episodeId, mode: p.mode, scenario: p.scenario, state: 'queued', turns: 0, maxTurns: p.maxTurns, tokens: 0, costUsd: 0 });
      this.total += 1;
      this.touch(p.episodeId);
    }
    this.broadcast(this.runMessage());
  }

  /** An episode's seats were reserved: it waits for its seats to join. */
  prepared(episodeId: string): void {
    this.update(episodeId, { state: 'waiting' });
    this.details.set(episodeId, { turns: [], ledgers: new Map(), bytes: 0, cut: false, tokens: 0, usd: 0, unpriced: false });
  }

  /** A frame a seat was sent, as its ledger has it (the same text). */
  ledgerLine(episodeId: string, seat: string, line: string): void {
    const d = this.details.get(episodeId);
    if (!d) return;
    // The first request to play means every seat joined: the episode is under way.
    if (this.rows.get(episodeId)?.state === 'waiting' && /"type":"(turn|script)\.request"/.test(line.slice(0, 120))) this.update(episodeId, { state: 'playing' });
    if (d.bytes + line.length > this.limits.maxDetailBytes) {
      d.cut = true;
      return;
    }
    d.bytes += line.length;
    const lines = d.ledgers.get(seat) ?? [];
    lines.push(line);
    d.ledgers.set(seat, lines);
    this.pumpOpeners(episodeId);
  }

  /** A turn was played (or failed) in a live episode. */
  turn(episodeId: string, record: TurnRecord): void {
    const d = this.details.get(episodeId);
    if (!d) return;
    const turn = watchTurn(record);
    d.turns.push(turn);
    this.addCost(d, record);
    this.update(episodeId, { state: 'playing', turns: record.turn + 1, tokens: d.tokens, costUsd: d.unpriced && d.usd === 0 ? null : d.usd });
    this.pumpOpeners(episodeId);
  }

  /** An episode was recorded: its final turn count, cost and ending. */
  finished(r: EpisodeRecord): void {
    const cost = { tokens: 0, usd: 0, unpriced: false };
    for (const c of pricedCalls(r)) this.addCost(cost, c);
    const termination = r.termination.detail && r.termination.reason === 'task_end' ? `${r.termination.reason}(${r.termination.detail})` : r.termination.reason;
    this.update(r.episodeId, { state: r.status === 'failed' ? 'failed' : 'done', turns: r.turns.length, tokens: cost.tokens, costUsd: cost.unpriced && cost.usd === 0 ? null : cost.usd, ending: termination });
    const d = this.details.get(r.episodeId);
    // Script mode has no live turns: the written dialogue arrives with the record.
    if (d && !d.turns.length && r.turns.length) {
      for (const t of r.turns) d.turns.push(watchTurn(t));
      this.pumpOpeners(r.episodeId);
    }
    this.finishedOrder.push(r.episodeId);
    while (this.finishedOrder.length > this.limits.keepFinished) this.details.delete(this.finishedOrder.shift()!);
  }

  /** The run is over: watchers are told, and no update follows. */
  end(): void {
    this.ended = true;
    this.flush();
    this.broadcast(this.runMessage());
  }

  /** A watcher connects: it gets the run and every row. Returns false when there are too many watchers. */
  attach(sink: WatchSink): boolean {
    if (this.sinks.size >= this.limits.maxWatchers) {
      sink.close(`too many watchers (${this.limits.maxWatchers}); close another watch page first`);
      return false;
    }
    this.sinks.set(sink, { open: null, cursor: null });
    this.deliver(sink, this.runMessage());
    const rows = [...this.rows.values()];
    for (let i = 0; i < rows.length || i === 0; i += this.limits.rowsPerMessage) this.deliver(sink, { type: 'rows', rows: rows.slice(i, i + this.limits.rowsPerMessage) });
    return true;
  }

  /** A watcher went away. */
  detach(sink: WatchSink): void {
    this.sinks.delete(sink);
  }

  /**
   * A watcher opens an episode: a short header, then what is known so far and each new turn and ledger
   * line, paced by what its socket has written (`pump`). Opening the episode already open does nothing:
   * its detail is sent once per open, however often a watcher asks.
   */
  open(sink: WatchSink, episodeId: string): void {
    const state = this.sinks.get(sink);
    if (!state || !this.rows.has(episodeId) || state.open === episodeId) return;
    state.open = episodeId;
    const d = this.details.get(episodeId) ?? this.fromArchive(episodeId);
    state.cursor = d ? { turns: 0, lines: new Map() } : null;
    const note = !d
      ? (this.rows.get(episodeId)!.state === 'queued' ? 'Not started yet.' : `Details are kept for the ${this.limits.keepFinished} latest finished episodes only: see ledgers/${episodeId}/ in the run directory.`)
      : d.cut ? `Ledgers cut at ${Math.round(this.limits.maxDetailBytes / 1024)} KB here: the full ones are in ledgers/${episodeId}/ in the run directory.` : undefined;
    this.deliver(sink, { type: 'episode', episodeId, turns: [], ledgers: {}, ...(note ? { note } : {}) });
    this.pump(sink);
  }

  /** A watcher's socket wrote what was queued: the opened episode's next chunks follow. */
  drained(sink: WatchSink): void {
    this.pump(sink);
  }

  /**
   * A finished episode's details read back from the run directory (`parley watch DIR`), capped as live
   * ones and kept like the latest finished episodes (so memory stays bounded however many are opened).
   */
  private fromArchive(episodeId: string): Detail | undefined {
    const a = this.archive?.(episodeId, this.limits.maxDetailBytes);
    if (!a) return undefined;
    const d: Detail = { turns: a.turns.map(watchTurn), ledgers: new Map(Object.entries(a.ledgers)), bytes: 0, cut: a.cut, tokens: 0, usd: 0, unpriced: false };
    this.details.set(episodeId, d);
    this.finishedOrder.push(episodeId);
    while (this.finishedOrder.length > this.limits.keepFinished) this.details.delete(this.finishedOrder.shift()!);
    return d;
  }

  /** Sends the coalesced row changes now (normally on a short timer). */
  flush(): void {
    this.flushPending = false;
    if (!this.dirty.size) return;
    const rows = [...this.dirty].map((id) => this.rows.get(id)!).filter(Boolean);
    this.dirty.clear();
    for (let i = 0; i < rows.length; i += this.limits.rowsPerMessage) this.broadcast({ type: 'rows', rows: rows.slice(i, i + this.limits.rowsPerMessage) });
  }

  private runMessage(): WatchMessage {
    return { type: 'run', runId: this.runId, total: this.total, ended: this.ended, ...(this.ended ? { summary: this.summary() } : {}) };
  }

  /** The run's outcome from its rows: episodes by how they ended, tokens and cost. */
  private summary(): WatchSummary {
    const s: WatchSummary = { done: 0, failed: 0, unfinished: 0, tokens: 0, costUsd: 0 };
    for (const r of this.rows.values()) {
      if (r.state === 'done') s.done += 1;
      else if (r.state === 'failed') s.failed += 1;
      else s.unfinished += 1;
      s.tokens += r.tokens;
      s.costUsd = r.costUsd === null || s.costUsd === null ? null : s.costUsd + r.costUsd;
    }
    return s;
  }

  /**
   * Resolves once every watcher's socket has written what it was sent (or after `ms`): the run's end
   * reaches the pages before the server closes, so they show it instead of a lost connection.
   */
  async settled(ms = 2000): Promise<void> {
    const until = Date.now() + ms;
    while ([...this.sinks.keys()].some((s) => s.backlog() > 0) && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
  }

  private update(episodeId: string, change: Partial<WatchRow>): void {
    const row = this.rows.get(episodeId);
    if (!row) return;
    Object.assign(row, change);
    this.touch(episodeId);
  }

  private touch(episodeId: string): void {
    this.dirty.add(episodeId);
    if (this.flushPending || this.ended) return;
    this.flushPending = true;
    this.schedule(() => this.flush(), this.limits.flushMs);
  }

  private addCost(into: { tokens: number; usd: number; unpriced: boolean }, call: PricedCall): void {
    const c = callCost(call);
    into.tokens += c.tokens;
    if (c.usd === null) into.unpriced = true;
    else into.usd += c.usd;
  }

  private broadcast(m: WatchMessage): void {
    for (const sink of [...this.sinks.keys()]) this.deliver(sink, m);
  }

  private pumpOpeners(episodeId: string): void {
    for (const [sink, s] of [...this.sinks]) if (s.open === episodeId) this.pump(sink);
  }

  /**
   * Sends the opened episode's detail the watcher has not had yet, a chunk at a time, while less than
   * `chunkBytes` is queued to it; the rest waits for `drained` or new detail. What a watcher is owed
   * stays in the hub's one copy (capped by `maxDetailBytes`), never in its socket.
   */
  private pump(sink: WatchSink): void {
    const state = this.sinks.get(sink);
    const cursor = state?.cursor;
    if (!state || !cursor || state.open === null) return;
    const episodeId = state.open;
    const d = this.details.get(episodeId);
    if (!d) {
      state.cursor = null;
      return;
    }
    while (this.sinks.has(sink) && sink.backlogBytes() < this.limits.chunkBytes) {
      if (cursor.turns < d.turns.length) {
        sink.send({ type: 'turn', episodeId, turn: d.turns[cursor.turns++]! });
        continue;
      }
      const next = [...d.ledgers].find(([seat, lines]) => (cursor.lines.get(seat) ?? 0) < lines.length);
      if (!next) return;
      const [seat, lines] = next;
      const from = cursor.lines.get(seat) ?? 0;
      let to = from;
      for (let bytes = 0; to < lines.length && (to === from || bytes + lines[to]!.length <= this.limits.chunkBytes); to++) bytes += lines[to]!.length;
      cursor.lines.set(seat, to);
      sink.send({ type: 'ledger', episodeId, seat, lines: lines.slice(from, to) });
    }
  }

  /** Sends to one watcher, or drops it when its socket has fallen too far behind (memory stays bounded). */
  private deliver(sink: WatchSink, m: WatchMessage): void {
    if (!this.sinks.has(sink)) return;
    if (sink.backlog() > this.limits.maxBacklog || sink.backlogBytes() > this.limits.maxBacklogBytes) {
      this.sinks.delete(sink);
      sink.close('this page fell behind the run; reload it to catch up');
      return;
    }
    sink.send(m);
  }
}

/** A turn record as a watcher sees it: the move or the failure, and when. */
function watchTurn(t: TurnRecord): WatchTurn {
  return { turn: t.turn, seat: t.seat, action: t.action, ...(t.error ? { error: { code: t.error.code, message: t.error.message } } : {}), atMs: Math.max(0, t.atMs) };
}
