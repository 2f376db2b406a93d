import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The longest files of the suite, each started at the head of its tier: the paper's grid at full size (~2–3
 * minutes, system) and the README test's shards (every shell block of README.md and docs/*.md, ~4 minutes in
 * all, test/readme/readme-shard.ts; integration). The README test's files are small, so Vitest's fresh-clone
 * order (by size) started them among the last, and they ran alone at the end.
 */
const FIRST = ['test/system/paper-scale.test.ts', 'test/readme/readme-run-1.test.ts', 'test/readme/readme-run-2.test.ts', 'test/readme/readme-run-3.test.ts'];
/** Heaviest tier first: its files are the long ones. */
const PROJECTS = ['system', 'integration', 'unit'];

/**
 * Longest work first, one tier after the other. Vitest's own order runs projects by name (integration, system,
 * unit) and, on a fresh clone with no timing cache, files by size, so the full-size paper run started last and
 * ran alone for minutes at the end of the suite with one of the two workers idle. Starting it first lets every
 * other file fill the other workers meanwhile.
 *
 * Tiers are not interleaved: Vitest 4 keeps a worker (isolate: false) only while the next file in the queue is
 * of the same project, and starts a new process (with its own import of the test graph) at every switch. With
 * the README shards (integration) started before the system tier, the first files switched tiers twice and the
 * suite started 8 forks workers instead of 6 (bench/vitest-cost.md, stop 21). The README shards now head the
 * integration tier, which starts ~2 minutes into the suite (system files: ~360 s of file time on three slots, the
 * paper run 115 s of it) and runs ~200 s more: they still end well before it.
 * Within a tier, Vitest's order stands (it uses the timing cache when there is one).
 */
export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root;
    const tier = (f: TestSpecification) => {
      const project = PROJECTS.indexOf(f.project.name);
      return project >= 0 ? project : PROJECTS.length;
    };
    const head = (f: TestSpecification) => {
      const first = FIRST.indexOf(relative(root, f.moduleId));
      return first >= 0 ? first - FIRST.length : 0;
    };
    return sorted
      .map((f, i) => ({ f, i, t: tier(f), h: head(f) }))
      .sort((a, b) => a.t - b.t || a.h - b.h || a.i - b.i)
      .map(({ f }) => f);
  }
}
