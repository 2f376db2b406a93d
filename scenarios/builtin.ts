import { generateCraigslist } from './generate/craigslist.js';
import { generateMutualFriends } from './generate/mutual-friends.js';
import { generateGameScenarios } from './generate/games.js';
import { generateGroupScenarios } from './generate/groups.js';
import type { Scenario } from './model.js';
import { deriveSeed } from './rng.js';

/** How many scenarios of each task the built-in set holds. */
export const BUILTIN_COUNTS = { mutual_friends: 10, craigslist_bargains: 10 } as const;

/**
 * The built-in scenario set (the offline default, `--scenarios builtin`): 10 MutualFriends and
 * 10 Craigslist scenarios generated from Parley's own pools, listings and characters.
 * Deterministic for a seed; ids are `builtin-mf-NN` and `builtin-cl-NN`.
 * `first`: only the set's first scenarios, the same as the whole set's (each generator draws its
 * scenarios in order from its own seed, so a shorter count is a prefix); a run with `--limit 2` builds
 * one scenario, not twenty (~30 ms of a small run's CPU).
 */
export function builtinScenarios(seed = 1, first?: number): Scenario[] {
  const mf = Math.min(BUILTIN_COUNTS.mutual_friends, first ?? Infinity);
  const cl = Math.min(BUILTIN_COUNTS.craigslist_bargains, (first ?? Infinity) - mf);
  return [
    ...generateMutualFriends({
      seed: deriveSeed(seed, 'mutual_friends'),
      count: mf,
      idPrefix: 'builtin-mf',
      source: 'builtin',
      subsets: ['mutual_friends'],
    }),
    ...(cl > 0 ? generateCraigslist({
      seed: deriveSeed(seed, 'craigslist'),
      count: cl,
      idPrefix: 'builtin-cl',
      source: 'builtin',
      subsets: ['craigslist_bargains'],
    }) : []),
  ];
}

/**
 * The built-in set a run or a listing selects from. Without a subset it is the twenty two-seat
 * scenarios, as before groups existed (so a default run, its cost and its episode ids stay the same);
 * with a subset the three group scenarios (subset `groups`, scenarios/generate/groups.ts) and the two
 * hidden-role games (subset `games`, scenarios/generate/games.ts) are there too. `first` (see
 * builtinScenarios) applies only without a subset: a subset filters the whole set.
 */
export function builtinScenarioSet(seed = 1, subset?: string, first?: number): Scenario[] {
  return subset ? [...builtinScenarios(seed), ...generateGroupScenarios(seed), ...generateGameScenarios(seed)] : builtinScenarios(seed, first);
}
