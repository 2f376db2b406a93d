import { builtinScenarios } from '../../scenarios/builtin.js';
import { generateCraigslist } from '../../scenarios/generate/craigslist.js';
import { generateGroupScenarios } from '../../scenarios/generate/groups.js';
import { generateMutualFriends } from '../../scenarios/generate/mutual-friends.js';
import { deriveSeed } from '../../scenarios/rng.js';
import { loadFriendPools, loadListings } from '../../scenarios/generate/sources.js';
import { writeScenarioFile } from '../../scenarios/load.js';
import type { Scenario } from '../../scenarios/model.js';
import { parseFlags, specOfHelp, type Subcommand } from '../command.js';
import { EXIT, intOption, UsageError } from './common.js';

const TEXT = `usage: parley scenarios make KIND --out FILE [--n N] [--seed S] [options]

Generates task scenarios from a seed (same seed → same file), with Parley's own value pools, listings and
characters unless files are given.

kinds:
  mutual-friends    each side 5–12 friends of 3–4 attributes, skewed values, exactly one shared friend
  craigslist        from listings: seller target = listing price, buyer target 0.5/0.7/0.9 × price
  groups            N rounds of the three group tasks (three seats each): a three-way MutualFriends, an
                    auction (a seller, two buyers with private valuations), a split that needs a majority
  builtin           the built-in set (10 + 10), as used by \`--scenarios builtin\``;

/** The options the parser accepts; the help's options section is generated from them. */
const OPTIONS = {
  out: { type: 'string', metavar: 'FILE', describe: 'where to write (required)' },
  n: { type: 'string', metavar: 'N', describe: 'how many (default 10; not for builtin)' },
  seed: { type: 'string', metavar: 'S', describe: 'seed (default 1)' },
  pools: { type: 'string', metavar: 'FILE', describe: 'mutual-friends: cocoa-style schema with value pools (e.g. ../shared/data/cocoa/mutualfriends_friends_schema.json)' },
  listings: { type: 'string', metavar: 'FILE', describe: 'craigslist: JSON list of listings (title, category, price, description[]) (e.g. ../shared/data/cocoa/craigslist_listings_sample.json)' },
  style: { type: 'string', metavar: 'STYLE', describe: 'craigslist: cocoa (buyer sees part of the description, default) or sotopia (the whole listing is in the public scenario text)' },
  'id-prefix': { type: 'string', metavar: 'P', describe: 'scenario ids are P-01, P-02, … (default mf / cl; groups: P-mf-01, P-auction-01, P-split-01, default group)' },
} as const;

const SPEC = specOfHelp('scenarios make', TEXT, OPTIONS);


export const makeCommand: Subcommand = {
  spec: SPEC,
  async run(argv) {
    const { values, positionals } = parseFlags(SPEC, argv);
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
      case 'groups':
        // One round per N, each from its own derived seed: <prefix>-mf-01, <prefix>-auction-01, <prefix>-split-01, …
        scenarios = Array.from({ length: n }, (_, i) =>
          generateGroupScenarios(deriveSeed(seed, `groups-${i + 1}`), { idPrefix: idPrefix ?? 'group', idSuffix: `-${String(i + 1).padStart(2, '0')}`, source: 'generated:groups' }),
        ).flat();
        break;
      case 'builtin':
        scenarios = builtinScenarios(seed);
        break;
      default:
        throw new UsageError(`unknown kind '${positionals[0]}' (expected mutual-friends, craigslist, groups or builtin)`);
    }
    await writeScenarioFile(values.out, scenarios);
    console.log(`wrote ${scenarios.length} scenarios to ${values.out}`);
    return EXIT.ok;
  },
};
