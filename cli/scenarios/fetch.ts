import { fetchSotopia } from '../../scenarios/fetch/sotopia-fetch.js';
import { writeScenarioFile } from '../../scenarios/load.js';
import { parseFlags, specOfHelp, type Subcommand } from '../command.js';
import { EXIT, UsageError } from './common.js';

const FETCH_OPTIONS = {
  from: { type: 'string', metavar: 'URL|DIR', describe: 'a base URL (or local directory) holding the five files (environment_profiles.jsonl, agent_profiles.jsonl, relationship_profiles.jsonl, env_agent_combo_storages.jsonl, env_ids.json)' },
  out: { type: 'string', metavar: 'FILE', describe: 'scenario file to write (default S.jsonl)' },
  refresh: { type: 'boolean', describe: 'download again even if the cache holds a verified copy' },
} as const;

const SPEC = specOfHelp('scenarios fetch', `usage: parley scenarios fetch sotopia [--from URL|DIR] [--out FILE] [--refresh]

Downloads SOTOPIA's public benchmark profiles, verifies them (every record, and the published counts:
90 scenarios, 40 characters, 120 relationships, 450 character pairs) and imports them into a Parley
scenario file. By default the files come from their public repositories at pinned commits
(sotopia-lab/sotopia-space profiles/ and sotopia-lab/sotopia-pi's env_ids.json); the download is
cached under $PARLEY_CACHE (default ~/.cache/parley) and reused. On any failure nothing is written.`, FETCH_OPTIONS);

/** `parley scenarios fetch sotopia`: download, verify, cache, import. */
export const fetchCommand: Subcommand = {
  spec: SPEC,
  async run(argv) {
    const { values, positionals } = parseFlags(SPEC, argv);
    if (positionals.length !== 1 || positionals[0] !== 'sotopia') throw new UsageError(`expected the data set name 'sotopia'${positionals[0] ? ` (got '${positionals[0]}')` : ''}`);
    const out = values.out ?? 'S.jsonl';
    const r = await fetchSotopia({ ...(values.from !== undefined ? { from: values.from } : {}), refresh: values.refresh === true, log: (l) => console.log(l) });
    const c = r.counts;
    console.log(`verified ${c.environments} scenarios, ${c.characters} characters, ${c.relationships} relationships, ${c.pairs} character pairs`);
    await writeScenarioFile(out, r.scenarios);
    console.log(`wrote ${r.scenarios.length} scenario records to ${out}`);
    return EXIT.ok;
  },
};
