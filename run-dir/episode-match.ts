/**
 * Which recorded episode a user means by EPISODE on a command line (`parley show`, `parley fork`): its
 * exact id, else the one episode whose id contains what was typed (a prefix such as
 * `builtin-mf-01.agents`). One rule for every command, so an id `show` accepts is accepted by `fork`.
 */
export type EpisodeMatch = { ok: true; id: string } | { ok: false; matches: string[] };

export function matchEpisodeId(ids: readonly string[], wanted: string): EpisodeMatch {
  if (ids.includes(wanted)) return { ok: true, id: wanted };
  const partial = wanted === '' ? [] : ids.filter((id) => id.includes(wanted));
  return partial.length === 1 ? { ok: true, id: partial[0]! } : { ok: false, matches: partial };
}

/** The refusal for a match that failed: none found, or several (the first three named). */
export function episodeMatchProblem(wanted: string, matches: readonly string[], where: string): string {
  const shown = JSON.stringify(wanted.slice(0, 120));
  if (!matches.length) return `${where} has no episode ${shown}`;
  return `${shown} matches ${matches.length} episodes (${matches.slice(0, 3).join(', ')}${matches.length > 3 ? ', …' : ''}); give more of the id`;
}
