import { checkScenario } from '../../scenarios/check.js';
import { filterSubset, loadScenarios } from '../../scenarios/load.js';
import type { Scenario } from '../../scenarios/model.js';
import { parseFlags, specOfHelp, type Subcommand } from '../command.js';
import { EXIT, quietOnClosedPipe, UsageError } from './common.js';

const FILE_NOTE = 'FILE is a Parley scenario file (JSONL) or `builtin` (`builtin:SEED` for another seed).';

/** Groups instances of one situation (SOTOPIA's 5 character pairs per environment) in file order. */
function groupByEnv(scenarios: Scenario[]): Scenario[][] {
  const groups = new Map<string, Scenario[]>();
  for (const s of scenarios) groups.set(s.envId, [...(groups.get(s.envId) ?? []), s]);
  return [...groups.values()];
}

const oneLine = (text: string, max: number) => {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
};

const LIST_OPTIONS = { subset: { type: 'string', metavar: 'NAME', describe: 'only scenarios tagged NAME (e.g. hard, mutual_friends, craigslist_bargains)' } } as const;

const LIST_SPEC = specOfHelp('scenarios list', `usage: parley scenarios list FILE [--subset NAME]

Prints one line per scenario — instances of one situation (SOTOPIA's character pairs) grouped by their
envId — and the count at the end. ${FILE_NOTE}`, LIST_OPTIONS);

export const listCommand: Subcommand = {
  spec: LIST_SPEC,
  async run(argv) {
    const { values, positionals } = parseFlags(LIST_SPEC, argv);
    if (positionals.length !== 1) throw new UsageError('expected one FILE');
    quietOnClosedPipe();
    const scenarios = filterSubset(await loadScenarios(positionals[0]!, values.subset), values.subset);
    const groups = groupByEnv(scenarios);
    for (const g of groups) {
      const s = g[0]!;
      const pairs = g.length > 1 ? `${g.length} pairs` : '1 pair';
      console.log(`${s.envId}  ${s.kind.padEnd(14)} ${(s.codename ?? '').padEnd(28)} ${pairs.padEnd(8)} [${s.subsets.join(',')}]  ${oneLine(s.narrative.map((n) => n.text).join(' '), 70)}`);
    }
    const subset = values.subset ? ` in subset '${values.subset}'` : '';
    console.log(`${groups.length} scenarios${subset} (${scenarios.length} character-pair instances)`);
    return EXIT.ok;
  },
};

const SHOW_SPEC = specOfHelp('scenarios show', `usage: parley scenarios show FILE ID

Prints the full record(s) whose id, envId or codename is ID, as JSON. ${FILE_NOTE}`, {});

export const showCommand: Subcommand = {
  spec: SHOW_SPEC,
  async run(argv) {
    const { positionals } = parseFlags(SHOW_SPEC, argv);
    if (positionals.length !== 2) throw new UsageError('expected FILE and ID');
    const [file, id] = positionals as [string, string];
    const scenarios = await loadScenarios(file);
    const byId = scenarios.filter((s) => s.id === id);
    const found = byId.length ? byId : scenarios.filter((s) => s.envId === id || s.codename === id);
    if (found.length === 0) {
      console.error(`parley scenarios show: no scenario with id, envId or codename '${id}' in ${file}`);
      return EXIT.failed;
    }
    for (const s of found) console.log(JSON.stringify(s, null, 2));
    return EXIT.ok;
  },
};

const VALIDATE_SPEC = specOfHelp('scenarios validate', `usage: parley scenarios validate FILE

Checks every record against the Scenario schema (naming the line and field of the first bad one) and for
consistency: judge-only text absent from what seats see, task data matching the truth, one buyer and one
seller, secrets matching characters. Exits 1 on any problem. ${FILE_NOTE}`, {});

export const validateCommand: Subcommand = {
  spec: VALIDATE_SPEC,
  async run(argv) {
    const { positionals } = parseFlags(VALIDATE_SPEC, argv);
    if (positionals.length !== 1) throw new UsageError('expected one FILE');
    const scenarios = await loadScenarios(positionals[0]!);
    const problems = scenarios.flatMap(checkScenario);
    for (const p of problems) console.error(`${positionals[0]}: scenario ${p.id}, field '${p.field}': ${p.problem}`);
    const kinds = new Map<string, number>();
    for (const s of scenarios) kinds.set(s.kind, (kinds.get(s.kind) ?? 0) + 1);
    const summary = [...kinds].map(([k, n]) => `${k} ${n}`).join(', ');
    if (problems.length) {
      console.error(`${problems.length} problem(s) in ${scenarios.length} records`);
      return EXIT.failed;
    }
    console.log(`${scenarios.length} records valid (${summary}; ${new Set(scenarios.map((s) => s.envId)).size} scenarios)`);
    return EXIT.ok;
  },
};
