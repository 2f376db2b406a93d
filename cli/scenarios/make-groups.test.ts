import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { run } from '../commands/scenarios.js';
import { checkScenario } from '../../scenarios/check.js';
import { loadScenarioFile } from '../../scenarios/load.js';

/** `parley scenarios make groups`: more group scenarios, three seats each, from a seed. */
describe('parley scenarios make groups', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'parley-make-groups-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('writes N rounds of the three group tasks, consistent, with distinct ids, the same for the same seed', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      const [a, b] = [path.join(dir, 'a.jsonl'), path.join(dir, 'b.jsonl')];
      expect(await run(['make', 'groups', '--n', '3', '--seed', '5', '--out', a])).toBe(0);
      expect(await run(['make', 'groups', '--n', '3', '--seed', '5', '--out', b])).toBe(0);
      const made = await loadScenarioFile(a);
      expect(made).toEqual(await loadScenarioFile(b));
      expect(made.map((s) => s.id)).toEqual(['01', '02', '03'].flatMap((n) => [`group-mf-${n}`, `group-auction-${n}`, `group-split-${n}`]));
      for (const s of made) {
        expect(s.seats).toHaveLength(3);
        expect(s.source).toBe('generated:groups');
        expect(checkScenario(s)).toEqual([]);
      }
      // Rounds differ from each other.
      expect(JSON.stringify(made[0]!.seats)).not.toBe(JSON.stringify(made[3]!.seats));
    } finally {
      log.mockRestore();
    }
  });
});
