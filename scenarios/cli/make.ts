import { builtinScenarios } from '../builtin.js';
import { generateCraigslist } from '../generate/craigslist.js';
import { generateMutualFriends } from '../generate/mutual-friends.js';
import { loadFriendPools, loadListings } from '../generate/sources.js';
import { writeScenarioFile } from '../load.js';
import type { Scenario } from '../model.js';
import { EXIT, intOption, parse, UsageError, type Subcommand } from './common.js';

const HELP = `usage: parley scenarios make KIND --out FILE [--n N] [--seed S] [options]

Generates task scenarios from a seed (same seed → same file), with Parley's own value pools, listings and
characters unless files are given.

kinds:
  mutual-friends    each side 5–12 friends of 3–4 attributes, skewed values, exactly one shared friend
  craigslist        from listings: seller target = listing price, buyer target 0.5/0.7/0.9 × price
  builtin           the built-in set (10 + 10), as used by \`--scenarios builtin\`

options:
  --out FILE          where to write (required)
  --n N               how many (default 10; not for builtin)
  --seed S            seed (default 1)
  --pools FILE        mutual-friends: cocoa-style schema with value pools
                      (e.g. ../shared/data/cocoa/mutualfriends_friends_schema.json)
  --listings FILE     craigslist: JSON list of listings (title, category, price, description[])
                      (e.g. ../shared/data/cocoa/craigslist_listings_sample.json)
  --style STYLE       craigslist: cocoa (buyer sees part of the description, default) or sotopia
                      (the whole listing is in the public scenario text)
  --id-prefix P       scenario ids are P-01, P-02, … (default mf / cl)`;

const OPTIONS = {
      out: { type: 'string' }, n: { type: 'string' }, seed: { type: 'string' }, pools: { type: 'string' },
      listings: { type: 'string' }, style: { type: 'string' }, 'id-prefix': { type: 'string' },
} as const;

export const makeCommand: Subcommand = {
  help: HELP,
  options: OPTIONS,
  async run(argv) {
    const { values, positionals } = parse(argv, OPTIONS);
    if (positionals.length !== 1) throw new UsageError('expected KIND');
    if (!values.out) throw new UsageError('--out FILE is required');
    const n = intOption('n', values.n, 10);
    const seed = intOption('seed', values.seed, 1, 0);
    if (values.style !== undefined && values.style !== 'cocoa' && values.style !== 'sotopia') throw new UsageError(`--style must be cocoa or sotopia`);
    const idPrefix = values['id-prefix'];
    let scenarios: Scenario[];
    switch (positionals[0]) {
      case 'mutual-friends':
        scenarios = generateMutualFriends({
          seed, count: n, idPrefix: idPrefix ?? 'mf', source: 'generated:mutual-friends',
          ...(values.pools ? { pools: await loadFriendPools(values.pools) } : {}),
        });
        break;
      case 'craigslist':
        scenarios = generateCraigslist({
          seed, count: n, idPrefix: idPrefix ?? 'cl', source: 'generated:craigslist',
          style: (values.style as 'cocoa' | 'sotopia' | undefined) ?? 'cocoa',
          ...(values.listings ? { listings: await loadListings(values.listings) } : {}),
        });
        break;
      case 'builtin':
        scenarios = builtinScenarios(seed);
        break;
      default:
        throw new UsageError(`unknown kind '${positionals[0]}' (expected mutual-friends, craigslist or builtin)`);
    }
    await writeScenarioFile(values.out, scenarios);
    console.log(`wrote ${scenarios.length} scenarios to ${values.out}`);
    return EXIT.ok;
  },
};
