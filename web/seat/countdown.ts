import { setText } from './dom.js';

/**
 * The dock's "Time left for your move": shown in seconds, so it changes once a second. One timer, due when
 * the shown second changes, runs only while a turn is open; each change is the text node's data (a page
 * that waits for a person does nothing else). It used to be rewritten, node and all, every 500 ms.
 */
export class Countdown {
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly box: HTMLElement, private readonly timeLeftMs: () => number | null) {}

  /** Shows the time left now and keeps it current until `clear` (nothing when no turn is open). */
  show(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const ms = this.timeLeftMs();
    if (ms === null) return;
    const left = Math.ceil(ms / 1000);
    const shown = left >= 60 ? `${Math.floor(left / 60)} min ${String(left % 60).padStart(2, '0')} s` : `${left} s`;
    setText(this.box, `Time left for your move: ${shown}`);
    this.box.classList.toggle('urgent', left <= 15);
    // Due when ceil(ms / 1000) drops to left - 1 (a millisecond late rather than early).
    if (left > 0) this.timer = setTimeout(() => this.show(), ms - (left - 1) * 1000 + 1);
  }

  /** The turn is over: no time shown, no timer. */
  clear(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    setText(this.box, '');
    this.box.classList.remove('urgent');
  }
}
