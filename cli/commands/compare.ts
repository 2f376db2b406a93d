import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Mode } from '../../protocol/index.js';
import { MODES } from '../../protocol/index.js';
import type { LlmClient } from '../../llm/types.js';
import { comparePairs, matchEpisodes } from '../../evaluator/compare/naturalness.js';
import { loadRunDir, writeFileAtomic, type RunDir } from '../../evaluator/run-dir.js';
import { parseAnnotations } from '../../evaluator/human/annotation.js';
import { humanSummaryLines, summariseHuman, type JudgeVerdict } from '../../evaluator/human/summary.js';

const HELP = `usage: parley compare DIR_A DIR_B --judge SPEC [options]
       parley compare --human ANN.jsonl [--verdicts FILE]

For each scenario run in both directories (matched by scenario, character pair and repeat), asks the judge
which of the two conversations reads more like a natural interaction, showing them in a seeded random
order, and reports A's win rate with a 95% Wilson interval. Verdicts go to a JSONL file.

options:
  --judge SPEC        e.g. openai:gpt-4
  --mode-a MODE       which episodes of DIR_A (script | agents | mindreaders); needed when DIR_A has several
  --mode-b MODE       which episodes of DIR_B; likewise
  --seed N            seed of the presentation order (default 1)
  --concurrency N     pairs judged at once (default 4)
  --out FILE          verdicts (default DIR_A/compare-<mode-a>-vs-<mode-b>.jsonl)
  --base-url URL      provider base URL
  --api-key-env VAR   env variable holding the key

--human ANN.jsonl (answers of \`parley annotate\`): win rates with 95% Wilson intervals, agreement between
annotators (Fleiss' kappa; Cohen's with two annotators) and, when the LLM judge's verdicts exist
(--verdicts FILE, or the one compare-*.jsonl in RUN_A), agreement between humans and the judge.
`;

function chooseMode(run: RunDir, flag: string | undefined, which: string): Mode | string {
  const modes = [...new Set(run.episodes.map((e) => e.record.mode))];
  if (flag) {
    if (!(MODES as readonly string[]).includes(flag)) return `--mode-${which} must be one of ${MODES.join(', ')} (got '${flag}')`;
    return flag as Mode;
  }
  if (modes.length === 1) return modes[0]!;
  return `${run.dir} has episodes in ${modes.length ? modes.join(', ') : 'no mode'}: choose one with --mode-${which}`;
}

/** \`parley compare DIR_A DIR_B --judge SPEC\`. */
export async function run(argv: string[]): Promise<number> {
  let args;
  try {
    args = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        judge: { type: 'string' },
        'mode-a': { type: 'string' },
        'mode-b': { type: 'string' },
        seed: { type: 'string', default: '1' },
        concurrency: { type: 'string', default: '4' },
        out: { type: 'string' },
        'base-url': { type: 'string' },
        'api-key-env': { type: 'string' },
        human: { type: 'string' },
        verdicts: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (err) {
    console.error(`parley compare: ${(err as Error).message}\n\n${HELP}`);
    return 2;
  }
  const { values, positionals } = args;
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  if (values.human) return compareHuman(values.human, values.verdicts);
  if (positionals.length !== 2) {
    console.error(`parley compare: expected two run directories, got ${positionals.length}\n\n${HELP}`);
    return 2;
  }
  if (!values.judge) {
    console.error('parley compare: --judge SPEC is required (e.g. --judge openai:gpt-4)');
    return 2;
  }
  const seed = Number(values.seed);
  const concurrency = Number(values.concurrency);
  if (!Number.isInteger(seed) || !Number.isInteger(concurrency) || concurrency < 1) {
    console.error('parley compare: --seed must be an integer and --concurrency a positive integer');
    return 2;
  }
  const runs: RunDir[] = [];
  for (const dir of positionals) {
    const loaded = await loadRunDir(dir);
    if (!loaded.ok) {
      console.error(`parley compare: ${loaded.error.message}`);
      return 1;
    }
    runs.push(loaded.run);
  }
  const [a, b] = runs as [RunDir, RunDir];
  const modeA = chooseMode(a, values['mode-a'], 'a');
  const modeB = chooseMode(b, values['mode-b'], 'b');
  for (const m of [modeA, modeB]) {
    if (!(MODES as readonly string[]).includes(m)) {
      console.error(`parley compare: ${m}`);
      return 2;
    }
  }
  const pairs = matchEpisodes(a, modeA as Mode, b, modeB as Mode);
  if (pairs.length === 0) {
    console.error(`parley compare: no scenario was run (ok) in both ${a.dir} (${modeA}) and ${b.dir} (${modeB})`);
    return 1;
  }
  // Loaded only now: the provider SDKs take a while to load, and argument errors should not wait for them.
  const { createClient } = await import('../../llm/index.js');
  let client: LlmClient;
  try {
    client = createClient({ spec: values.judge, ...(values['base-url'] ? { baseURL: values['base-url'] } : {}), ...(values['api-key-env'] ? { apiKeyEnv: values['api-key-env'] } : {}) });
  } catch (err) {
    console.error(`parley compare: judge ${values.judge}: ${(err as Error).message}`);
    return 2;
  }
  console.error(`parley compare: ${pairs.length} pairs, A = ${a.dir} (${modeA}), B = ${b.dir} (${modeB}), judge ${values.judge}`);
  const result = await comparePairs(pairs, client, { seed, concurrency, onProgress: (d, t) => console.error(`judged ${d}/${t} pairs`) });
  const out = values.out ?? path.join(a.dir, `compare-${modeA}-vs-${modeB}.jsonl`);
  await writeFileAtomic(out, result.verdicts.map((v) => JSON.stringify(v) + '\n').join(''));
  const pct = (v: number | null) => (v === null ? '—' : `${(v * 100).toFixed(1)}%`);
  console.log(
    `A (${modeA}) judged more natural in ${result.winsA}/${result.n} pairs: ${pct(result.rate.p)} [95% Wilson ${pct(result.rate.lo)}, ${pct(result.rate.hi)}]` +
      (result.errors ? `; ${result.errors} pairs not judged (evaluation errors)` : '') +
      `\nwrote ${out}`,
  );
  return result.n === 0 ? 1 : 0;
}

/** `parley compare --human ANN.jsonl [--verdicts FILE]`: the human study's summary. */
function compareHuman(file: string, verdictsFile: string | undefined): number {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    console.error(`parley compare: cannot read ${file}: ${(err as Error).message}`);
    return 1;
  }
  const { annotations, bad } = parseAnnotations(text);
  for (const b of bad) console.error(`parley compare: ${file}:${b.line}: ${b.message} (line ignored)`);
  if (!annotations.length) {
    console.error(`parley compare: no answers in ${file}`);
    return 1;
  }
  const found = verdictsFile ?? judgeVerdictsNear(annotations[0]!.runA);
  let verdicts: JudgeVerdict[] | null = null;
  if (found) {
    try {
      verdicts = readFileSync(found, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as JudgeVerdict);
    } catch (err) {
      console.error(`parley compare: cannot read the judge verdicts ${found}: ${(err as Error).message}`);
      return 1;
    }
  }
  for (const line of humanSummaryLines(summariseHuman(annotations, verdicts))) console.log(line);
  if (found) console.log(`  (judge verdicts: ${found})`);
  return 0;
}

/** The one `compare-*.jsonl` of the LLM judge in RUN_A, if there is exactly one. */
function judgeVerdictsNear(runA: string): string | undefined {
  if (!existsSync(runA)) return undefined;
  const files = readdirSync(runA).filter((f) => /^compare-.*\.jsonl$/.test(f));
  return files.length === 1 ? path.join(runA, files[0]!) : undefined;
}
