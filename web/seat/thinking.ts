import { bdi, el } from './dom.js';

/** The dots' steps, one every STEP_MS while a partner thinks: three changes of one text node a cycle. */
const STEPS = ['.', '..', '...'];
const STEP_MS = 500;
/** With reduced motion the dots stand still: one ellipsis. */
const STILL = '…';

/**
 * "<name> is thinking" under the conversation while a partner's move is awaited, with dots that step a
 * few times a second on a timer that runs only while the line is shown, as the data of their own text
 * node. (An infinite CSS animation of their width made Chromium recalculate style every frame for as long
 * as a partner thought.) prefers-reduced-motion: no timer, the dots stand still; followed when it changes.
 */
export class ThinkingLine {
  private readonly dots = document.createTextNode(STILL);
  private readonly still = matchMedia('(prefers-reduced-motion: reduce)');
  private timer: ReturnType<typeof setInterval> | undefined;
  private step = 0;

  constructor(private readonly line: HTMLElement) {
    this.still.addEventListener('change', () => this.run());
  }

  /** Shows "<name> is thinking" with its dots. */
  show(name: string): void {
    this.line.replaceChildren(bdi(name), ' is thinking', el('span', { class: 'dots', 'aria-hidden': 'true' }, this.dots));
    this.line.hidden = false;
    this.run();
  }

  hide(): void {
    this.line.hidden = true;
    this.run();
  }

  /** Starts or stops the dots' timer for what is shown and the motion preference now. */
  private run(): void {
    const moving = !this.line.hidden && !this.still.matches;
    if (!moving) {
      clearInterval(this.timer);
      this.timer = undefined;
      if (this.dots.data !== STILL) this.dots.data = STILL;
      return;
    }
    if (this.timer !== undefined) return;
    this.step = 0;
    this.dots.data = STEPS[0]!;
    this.timer = setInterval(() => {
      this.step = (this.step + 1) % STEPS.length;
      this.dots.data = STEPS[this.step]!;
    }, STEP_MS);
  }
}
