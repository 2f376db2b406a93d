/**
 * Which children of a bench case process are its agent processes (sampled for memory by bench/child.ts),
 * and which are not: the esbuild service the case may start for a moment. A child's command line is read
 * once, not on every sample (108 agent processes, five samples a second, on the machine measured), and the
 * verdict is kept only while it can still be right:
 * - a child that is forked but has not exec'd yet still shows its parent's command line (and its parent's
 *   memory): it is neither sampled nor judged until it has exec'd (an agent sampled then would report the
 *   orchestrator's RSS as its peak; an esbuild judged then would be sampled as an agent for good);
 * - a verdict is dropped as soon as its pid is no longer a child, so a pid the kernel hands out again later
 *   is judged afresh (reuse within one sampling interval would need the whole pid space to wrap meanwhile).
 */
export class CaseChildren {
  private readonly isEsbuild = new Map<number, boolean>();
  private parentCmdline: string | null = null;

  constructor(
    private readonly parent: number,
    private readonly children: (pid: number) => number[],
    private readonly cmdline: (pid: number) => string,
  ) {}

  /** The live children that are agent processes (exec'd, not esbuild). */
  agents(): number[] {
    const now = this.children(this.parent);
    const live = new Set(now);
    for (const pid of this.isEsbuild.keys()) if (!live.has(pid)) this.isEsbuild.delete(pid);
    return now.filter((pid) => this.judge(pid) === false);
  }

  /** true: esbuild; false: an agent process; null: not exec'd yet (or gone), asked again next time. */
  private judge(pid: number): boolean | null {
    const known = this.isEsbuild.get(pid);
    if (known !== undefined) return known;
    const line = this.cmdline(pid);
    this.parentCmdline ??= this.cmdline(this.parent) || null;
    if (!line || line === this.parentCmdline) return null;
    const verdict = /esbuild/.test(line);
    this.isEsbuild.set(pid, verdict);
    return verdict;
  }
}
