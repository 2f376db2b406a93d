import { describe, expect, it } from 'vitest';
import { planEpisodes } from './plan.js';
import { RunConfig } from '../run-config.js';
import { builtinScenarios } from '../../scenarios/builtin.js';
import { scenariosPlanned } from './run-inputs.js';

describe('scenariosPlanned', () => {
  it('is every scenario without a limit, and with --mindread', () => {
    expect(scenariosPlanned({ modes: ['agents'], repeats: 1 })).toBeUndefined();
    expect(scenariosPlanned({ modes: ['agents'], repeats: 1, limit: 2, mindread: 'all' })).toBeUndefined();
  });

  // The plan built from only the first scenarios is the plan built from all of them.
  for (const [limit, modes, repeats] of [[2, ['agents'], 1], [3, ['script', 'agents'], 1], [4, ['agents', 'mindreaders', 'script'], 2], [1, ['agents'], 3], [7, ['agents'], 2]] as const) {
    it(`--limit ${limit}, ${modes.length} mode(s), ${repeats} repeat(s): the same plan`, () => {
      const config = RunConfig.parse({ out: 'x', modes, repeats, limit });
      const all = planEpisodes(builtinScenarios(1), config);
      const first = scenariosPlanned(config);
      expect(first).toBeDefined();
      const part = planEpisodes(builtinScenarios(1, first), config);
      expect(part.map((p) => p.episodeId)).toEqual(all.map((p) => p.episodeId));
      expect(part).toHaveLength(limit);
    });
  }
});
