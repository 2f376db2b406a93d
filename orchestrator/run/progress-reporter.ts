import type { EpisodeRecord } from '../../protocol/index.js';
import { callCost, pricedCalls } from './episode-cost.js';
import { formatProgress } from './progress.js';

/** A terminal to draw the one refreshing status line on (stdout when it is a TTY). */
export interface StatusTerminal {
  write(text: string): void;
  columns(): number;
}

export interface ProgressOptions {
  /** Episodes of the run, and how many were recorded before this invocation. */
  total: number;
  alreadyDone: number;
  /** Writes one complete line. */
  log: (line: string) => void;
  /** When set (a TTY), progress is one line redrawn in place; otherwise plain lines. */
  tty?: StatusTerminal;
  /** Plain mode: a summary line this often (default 10 s). TTY: the redraw period (default 1 s). */
  intervalMs?: number;
  now?: () => number;
  /** How a scenario is named in log lines (its codename), by id; default the id. */
  scenarioName?: (scenarioId: string) => string;
  /** Seats answered from cassettes (a replay): their tokens are not counted as spent. */
  isReplayed?: (episodeId: string, seat: string) => boolean;
}

/** Running totals over the episodes recorded by this invocation. */
interface Totals {
  done: number;
  failed: number;
  recovered: number;
  tokens: number;
  usd: number;
  unpriced: Set<string>;
}

const CLEAR_LINE = '\r\x1b[2K';

function compact(n: number): string {
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)}k`;
  return String(n);
}

function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

/**
 * Progress of a run: episodes done/total, failures, recoveries, tokens and estimated cost (llm/cost.ts),
 * rate and ETA. On a TTY it is one status line redrawn in place, with failed episodes and notices
 * printed above it; otherwise one line per episode plus a periodic summary line, for log files.
 */
export class ProgressReporter {
  private readonly t: Totals = { done: 0, failed: 0, recovered: 0, tokens: 0, usd: 0, unpriced: new Set() };
  private readonly startedAt: number;
  private readonly now: () => number;
  private readonly timer: NodeJS.Timeout;
  private closed = false;

  /** Re-draws added after the start (selection first-valid): the total grows by them. */
  addPlanned(n: number): void {
    this.o.total += n;
  }

  constructor(private readonly o: ProgressOptions) {
    this.now = o.now ?? Date.now;
    this.startedAt = this.now();
    const every = o.intervalMs ?? (o.tty ? 1_000 : 10_000);
    this.timer = setInterval(() => (o.tty ? this.draw() : o.log(this.summary())), every);
    this.timer.unref();
    if (o.tty) this.draw();
  }

  /** An episode was recorded. */
  episode(r: EpisodeRecord): void {
    const t = this.t;
    t.done += 1;
    if (r.status === 'failed') t.failed += 1;
    if (r.recoveries?.length) t.recovered += 1;
    for (const c of pricedCalls(r)) {
      if (!c.usage || this.o.isReplayed?.(r.episodeId, c.seat)) continue;
      const cost = callCost(c);
      t.tokens += cost.tokens;
      if (!c.provider || !c.model) continue;
      // Unknown price (or an unreadable price table): reported as unpriced, never as free.
      if (cost.usd === null) t.unpriced.add(`${c.provider}:${c.model}`);
      else t.usd += cost.usd;
    }
    const line = formatProgress(this.o.alreadyDone + t.done, this.o.total, r, this.o.scenarioName?.(r.scenarioId));
    if (!this.o.tty) return this.o.log(line);
    if (r.status === 'failed' || r.recoveries?.length) this.notice(line);
    else this.draw();
  }

  /** A line that must be seen (printed above the status line on a TTY). */
  notice(line: string): void {
    if (!this.o.tty || this.closed) return this.o.log(line);
    this.o.tty.write(`${CLEAR_LINE}${line}\n`);
    this.draw();
  }

  /** `progress 12/300 (4%) · 1 failed · 0 recovered · 34.5k tokens · ~$0.0123 · 3.2 episodes/min · ETA 1h02m` */
  summary(): string {
    const { total, alreadyDone } = this.o;
    const t = this.t;
    const done = alreadyDone + t.done;
    const elapsed = Math.max(1, this.now() - this.startedAt);
    const perMin = (t.done / elapsed) * 60_000;
    const left = total - done;
    const eta = left <= 0 ? 'done' : t.done === 0 ? 'ETA …' : `ETA ${duration((left / t.done) * elapsed)}`;
    const cost = `~$${t.usd.toFixed(t.usd >= 1 ? 2 : 4)}${t.unpriced.size ? ` (+ unpriced ${[...t.unpriced].join(', ')})` : ''}`;
    const pct = total ? Math.floor((100 * done) / total) : 100;
    return `progress ${done}/${total} (${pct}%) · ${t.failed} failed · ${t.recovered} recovered · ${compact(t.tokens)} tokens · ${cost}${this.o.isReplayed ? ' spent (replayed calls free)' : ''} · ${perMin.toFixed(1)} episodes/min · ${eta}`;
  }

  /** Stops the timer; leaves a final summary line. */
  close(): void {
    if (this.closed) return;
    clearInterval(this.timer);
    if (this.o.tty) this.o.tty.write(`${CLEAR_LINE}${this.summary()}\n`);
    else this.o.log(this.summary());
    this.closed = true;
  }

  private draw(): void {
    const tty = this.o.tty;
    if (!tty || this.closed) return;
    const width = Math.max(20, tty.columns() - 1);
    const line = this.summary();
    tty.write(`${CLEAR_LINE}${line.length > width ? `${line.slice(0, width - 1)}…` : line}`);
  }
}
