import { importCocoaCraigslist } from '../../scenarios/import/cocoa-craigslist.js';
import { importCocoaMutualFriends } from '../../scenarios/import/cocoa-mutualfriends.js';
import { importSotopia } from '../../scenarios/import/sotopia.js';
import { writeScenarioFile } from '../../scenarios/load.js';
import type { Scenario } from '../../scenarios/model.js';
import { parseFlags, specOfHelp, type Subcommand } from '../command.js';
import { EXIT, intOption, UsageError } from './common.js';

const TEXT = `usage: parley scenarios import FORMAT SOURCE --out FILE [--seed N]

Imports scenarios into a Parley scenario file (JSONL, one scenario per line). Every input record is
validated; on the first problem the command names the file, line and field, exits 1 and writes nothing.

formats:
  sotopia DIR                   SOTOPIA profiles: environment_profiles.jsonl, agent_profiles.jsonl,
                                relationship_profiles.jsonl, env_agent_combo_storages.jsonl, env_ids.json
                                → one record per (scenario, character pair); subsets hard, mutual_friends,
                                craigslist_bargains and every SOTOPIA source name
  cocoa-craigslist FILE         cocoa CraigslistBargain scenarios (JSON list: uuid, category, kbs)
  cocoa-mutualfriends FILE      cocoa MutualFriends scenarios (JSON list: uuid, kbs)`;

/** The options the parser accepts; the help's options section is generated from them. */
const OPTIONS = {
  out: { type: 'string', metavar: 'FILE', describe: 'where to write (required)' },
  seed: { type: 'string', metavar: 'N', describe: 'cocoa formats: seed for assigning Parley\'s characters (default 1)' },
} as const;

const SPEC = specOfHelp('scenarios import', TEXT, OPTIONS);

/** Distinct envIds per subset, as "hard 14, mutual_friends 10, …". */
function subsetSummary(scenarios: Scenario[], names: string[]): string {
  return names
    .map((name) => `${name} ${new Set(scenarios.filter((s) => s.subsets.includes(name)).map((s) => s.envId)).size}`)
    .join(', ');
}


export const importCommand: Subcommand = {
  spec: SPEC,
  async run(argv) {
    const { values, positionals } = parseFlags(SPEC, argv);
    const [format, source] = positionals;
    if (!format || !source || positionals.length !== 2) throw new UsageError('expected FORMAT and SOURCE');
    if (!values.out) throw new UsageError('--out FILE is required');
    const seed = intOption('seed', values.seed, 1, 0);
    let scenarios: Scenario[];
    switch (format) {
      case 'sotopia': {
        const r = await importSotopia(source);
        scenarios = r.scenarios;
        const c = r.counts;
        console.log(`read ${c.environments} scenarios, ${c.characters} characters, ${c.relationships} relationships, ${c.pairs} character pairs`);
        console.log(`subsets: ${subsetSummary(scenarios, ['hard', 'mutual_friends', 'craigslist_bargains'])}`);
        break;
      }
      case 'cocoa-craigslist':
        scenarios = await importCocoaCraigslist(source, { seed });
        console.log(`read ${scenarios.length} CraigslistBargain scenarios`);
        break;
      case 'cocoa-mutualfriends':
        scenarios = await importCocoaMutualFriends(source, { seed });
        console.log(`read ${scenarios.length} MutualFriends scenarios`);
        break;
      default:
        throw new UsageError(`unknown format '${format}' (expected sotopia, cocoa-craigslist or cocoa-mutualfriends)`);
    }
    await writeScenarioFile(values.out, scenarios);
    console.log(`wrote ${scenarios.length} scenario records to ${values.out}`);
    return EXIT.ok;
  },
};
