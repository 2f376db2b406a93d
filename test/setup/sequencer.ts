import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** The longest file of the suite (the paper's grid at full size, ~2–3 minutes): started before anything else. */
const FIRST = ['test/system/paper-scale.test.ts'];
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
