import { describe, expect, it } from 'vitest';
import { episodeMatchProblem, matchEpisodeId } from './episode-match.js';

describe('matchEpisodeId', () => {
  const ids = ['builtin-mf-01.agents.r0.826f7f7fcde8', 'builtin-mf-01.mindreaders.r0.11aa', 'builtin-mf-02.agents.r0.22bb'];
  it('takes an exact id, else the one id containing the part given', () => {
    expect(matchEpisodeId(ids, ids[0]!)).toEqual({ ok: true, id: ids[0] });
    expect(matchEpisodeId(ids, 'builtin-mf-01.agents')).toEqual({ ok: true, id: ids[0] });
    expect(matchEpisodeId(ids, '22bb')).toEqual({ ok: true, id: ids[2] });
  });
  it('refuses a part several ids share, or none has, naming them', () => {
    const several = matchEpisodeId(ids, 'builtin-mf-01');
    expect(several).toEqual({ ok: false, matches: [ids[0], ids[1]] });
    expect(episodeMatchProblem('builtin-mf-01', [ids[0]!, ids[1]!], 'r1')).toContain('matches 2 episodes');
    expect(episodeMatchProblem('nope', [], 'r1')).toBe('r1 has no episode "nope"');
    expect(matchEpisodeId(ids, 'nope')).toEqual({ ok: false, matches: [] });
    expect(matchEpisodeId(ids, '')).toEqual({ ok: false, matches: [] });
  });
});
