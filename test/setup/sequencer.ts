import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The longest files of the suite, started before anything else: the paper's grid at full size (~2–3
 * minutes) and the README test's shards (every shell block of README.md and docs/*.md, ~4 minutes in all,
 * test/readme/readme-shard.ts). The README test's files are small, so Vitest's fresh-clone order (by size)
 * started them among the last, and they ran alone at the end.
 */
const FIRST = ['test/system/paper-scale.test.ts', 'test/readme/readme-run-1.test.ts', 'test/readme/readme-run-2.test.ts', 'test/readme/readme-run-3.test.ts'];
/** Heaviest tier first: its files are the long ones. */
const PROJECTS = ['system', 'integration', 'unit'];

/**
 * Longest work first. Vitest's own order runs projects by name (integration, system, unit) and, on a fresh
 * clone with no timing cache, files by size, so the full-size paper run started last and ran alone for
 * minutes at the end of the suite with one of the two workers idle. Starting it first lets every other file
 * fill the second worker meanwhile. Within a tier, Vitest's order stands (it uses the timing cache when
 * there is one).
 */
export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root;
    const rank = (f: TestSpecification) => {
      const first = FIRST.indexOf(relative(root, f.moduleId));
      if (first >= 0) return first - FIRST.length;
      const project = PROJECTS.indexOf(f.project.name);
      return project >= 0 ? project : PROJECTS.length;
    };
    return sorted
      .map((f, i) => ({ f, i, r: rank(f) }))
      .sort((a, b) => a.r - b.r || a.i - b.i)
      .map(({ f }) => f);
  }
}
