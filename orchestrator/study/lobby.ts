/**
 * The waiting room: participants who consented and wait for a partner. Two present participants are
 * paired at once, in arrival order; one who waited `waitMs` alone gets the study's partner policy
 * instead (`fallback`). A participant counts as present while their page keeps asking for its state
 * (within `presenceMs`): someone who closed the tab is not handed a partner who would then wait for
 * nobody, and is matched again when they come back. Timers are the process's; `now` is injected.
 */
export interface LobbyOptions {
  /** null: no fallback, participants wait for a person however long it takes. */
  waitMs: number | null;
  presenceMs: number;
  now: () => number;
  pair: (ids: [string, string]) => void;
  fallback: (id: string) => void;
}

export class Lobby {
  private readonly since = new Map<string, number>();
  private readonly seen = new Map<string, number>();
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly o: LobbyOptions) {}

  /** A participant starts waiting (consent given, or another session). */
  enter(id: string): void {
    const now = this.o.now();
    this.since.set(id, now);
    this.seen.set(id, now);
    this.match();
  }

  /** A participant's page asked for its state: they are present. */
  touch(id: string): void {
    this.seen.set(id, this.o.now());
    if (this.since.has(id)) this.match();
  }

  /** Leaves the room without a partner (withdrawn, or the server stopping). */
  leave(id: string): void {
    this.since.delete(id);
    this.seen.delete(id);
  }

  /** Participants waiting now and present. */
  get count(): number {
    return this.present().length;
  }

  /** Seconds until this participant gets the partner policy (null: not waiting, or no fallback). */
  secondsLeft(id: string): number | null {
    const since = this.since.get(id);
    if (since === undefined || this.o.waitMs === null) return null;
    return Math.max(0, Math.ceil((since + this.o.waitMs - this.o.now()) / 1000));
  }

  isWaiting(id: string): boolean {
    return this.since.has(id);
  }

  private present(): string[] {
    const now = this.o.now();
    return [...this.since.entries()].filter(([id]) => now - (this.seen.get(id) ?? 0) <= this.o.presenceMs).sort((a, b) => a[1] - b[1]).map(([id]) => id);
  }

  /** Pairs who can be paired, falls back those who waited long enough, and sets the next timer. */
  private match(): void {
    let here = this.present();
    while (here.length >= 2) {
      const [a, b] = here as [string, string];
      this.leave(a);
      this.leave(b);
      this.o.pair([a, b]);
      here = here.slice(2);
    }
    const now = this.o.now();
    const wait = this.o.waitMs;
    if (wait !== null) {
      for (const id of here) {
        if (now - this.since.get(id)! >= wait) {
          this.leave(id);
          this.o.fallback(id);
        }
      }
    }
    this.schedule();
  }

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.o.waitMs === null || !this.since.size) return;
    const next = Math.min(...[...this.since.values()].map((t) => t + this.o.waitMs!));
    this.timer = setTimeout(() => this.match(), Math.max(0, next - this.o.now()) + 10);
    this.timer.unref();
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
