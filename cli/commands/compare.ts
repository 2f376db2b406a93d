import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Mode } from '../../protocol/index.js';
import { MODES } from '../../protocol/index.js';
import type { LlmClient } from '../../llm/types.js';
import { comparePairs, matchEpisodes } from '../../evaluator/compare/naturalness.js';
import { writeFileAtomic } from '../../disk/atomic-write.js';
import { loadRunDir, type RunDir } from '../../evaluator/run-dir.js';
import { lockRunDir, runDirHolding } from '../run-dir-lock.js';

const HELP = `usage: parley compare DIR_A DIR_B --judge SPEC [options]

For each scenario run in both directories (matched by scenario, character pair and repeat), asks the judge
which of the two conversations reads more like a natural interaction, showing them in a seeded random
order, and reports A's win rate with a 95% Wilson interval. Verdicts go to a JSONL file.

options:
  --judge SPEC        e.g. openai:gpt-4
  --mode-a MODE       which episodes of DIR_A (script | agents | mindreaders); needed when DIR_A has several
  --mode-b MODE       which episodes of DIR_B; likewise
  --protocol P        paper: the paper's question (appendix E) with the annotators' context (backgrounds
                      and goals), no further criterion; parley: the public setting and naturalness cues
                      (default: DIR_A's run.json protocol, else parley)
  --seed N            seed of the presentation order (default 1)
  --concurrency N     pairs judged at once (default 4)
  --out FILE          verdicts (default DIR_A/compare-<mode-a>-vs-<mode-b>.jsonl)
  --base-url URL      provider base URL
  --api-key-env VAR   env variable holding the key
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
        protocol: { type: 'string' },
        seed: { type: 'string', default: '1' },
        concurrency: { type: 'string', default: '4' },
        out: { type: 'string' },
        'base-url': { type: 'string' },
        'api-key-env': { type: 'string' },
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
  const style = values.protocol ?? (a.run?.protocol?.name === 'paper' || (a.run?.['config'] as { protocol?: unknown } | undefined)?.protocol === 'paper' ? 'paper' : 'parley');
  if (style !== 'paper' && style !== 'parley') {
    console.error(`parley compare: --protocol must be paper or parley (got '${style}')`);
    return 2;
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
  console.error(`parley compare: ${pairs.length} pairs, A = ${a.dir} (${modeA}), B = ${b.dir} (${modeB}), judge ${values.judge}, question ${style}`);
  const result = await comparePairs(pairs, client, { seed, concurrency, style, onProgress: (d, t) => console.error(`judged ${d}/${t} pairs`) });
  const out = values.out ?? path.join(a.dir, `compare-${modeA}-vs-${modeB}.jsonl`);
  // Writing inside a run: take its lock for the write (the judging above needs none).
  const inside = runDirHolding(out, [a.dir, b.dir]);
  const locked = inside ? await lockRunDir(inside, 'compare', 15_000) : null;
  if (locked && !locked.ok) {
    console.error(`parley compare: ${locked.message}`);
    return 1;
  }
  try {
    await writeFileAtomic(out, result.verdicts.map((v) => JSON.stringify(v) + '\n').join(''));
  } finally {
    if (locked?.ok) locked.lock.release();
  }
  const pct = (v: number | null) => (v === null ? '—' : `${(v * 100).toFixed(1)}%`);
  console.log(
    `A (${modeA}) judged more natural in ${result.winsA}/${result.n} pairs: ${pct(result.rate.p)} [95% Wilson ${pct(result.rate.lo)}, ${pct(result.rate.hi)}]` +
      (result.errors ? `; ${result.errors} pairs not judged (evaluation errors)` : '') +
      `\nwrote ${out}`,
  );
  return result.n === 0 ? 1 : 0;
}
