import { readFileSync } from 'node:fs';
import { findDefinition, PROTOCOL_NAMES, recordedDefinition } from '../../simulation/index.js';
import path from 'node:path';
import { parseCommand, parseParam, positiveInt, UsageError, type CommandSpec } from '../command.js';
import type { Mode } from '../../protocol/index.js';
import { MODES } from '../../protocol/index.js';
import { terminalSafe } from '../../text/terminal.js';
import type { LlmClient } from '../../llm/types.js';
import { matchEpisodes, ORDERS, type Orders, type ReasoningAsk } from '../../evaluator/compare/naturalness.js';
import { positionBiasText } from '../../evaluator/compare/position-bias.js';
import { loadRunDir, type RunDir } from '../../evaluator/run-dir.js';
import { compareBatchesFile, compareVerdictsName } from '../../run-dir/index.js';
import { lockRunDir, runDirHolding, writeOutputFile } from '../run-dir-lock.js';
import { judgeVerdictsNear, readJudgeVerdicts } from '../judge-verdicts.js';
import { parseAnnotations } from '../../evaluator/human/annotation.js';
import { humanSummaryLines, summariseHuman, type JudgeVerdict } from '../../evaluator/human/summary.js';
import type { CompareResult } from '../../evaluator/compare/naturalness.js';
import { BATCH_RETRY_FLAGS, batchPollMsOf, batchRetryOf } from '../batch-flags.js';
import type { CompareBatchOptions, WriteFile } from '../../evaluator/batch/compare-batch.js';
import { usdOf } from '../plan/judge-estimate.js';
import { compareLive, verdictsText } from '../compare-live.js';

/** `parley compare`'s command line. */
export const spec: CommandSpec = {
  name: 'compare',
  usage: 'parley compare DIR_A DIR_B --judge SPEC [options]',
  summary: `For each scenario run in both directories (matched by scenario, character pair and repeat), asks the judge
which of the two conversations reads more like a natural interaction. --orders both (the default) asks
twice per pair, in a seeded random order and swapped, and counts a win only when both answers agree
(else a tie); --orders one asks once, in the seeded random order, as the paper did. Reports A's win rate
with a 95% Wilson interval, the position consistency (pairs whose two answers agree) and the share of
answers won by the conversation shown first. Verdicts go to a JSONL file (and into DIR_A's report, by
\`parley report\`).
--batch sends the naturalness requests through the provider's batch interface (half price, results
within a day): one JSONL upload and one batch, its id recorded beside the verdicts file in
<verdicts>.batch.json before the command waits; it polls until the batch ends, printing its status and
request counts. Stopped (Ctrl-C, a crash) and started again, the same command collects the recorded
batch instead of submitting another. openai: judges (OpenAI and compatible servers with /v1/files and
/v1/batches) and mistral: judges (Mistral's batch jobs).
Live judging appends each verdict to <verdicts>.journal the moment it returns. The first Ctrl-C starts no
new pair, lets those in flight finish (at most 30 s), writes the verdicts file with every pair judged and
exits 130, printing "N judged and saved; resume with \`--missing\`"; a second Ctrl-C quits at once, the
journal keeping what returned. --missing then judges only the pairs without a verdict.`,
  flags: {
    judge: { type: 'string', metavar: 'SPEC', describe: 'judge model, e.g. openai:gpt-4 (required)' },
    'mode-a': { type: 'string', metavar: 'MODE', describe: 'which episodes of DIR_A (script | agents | mindreaders); needed when DIR_A has several' },
    'mode-b': { type: 'string', metavar: 'MODE', describe: 'which episodes of DIR_B; likewise' },
    protocol: { type: 'string', metavar: 'paper|parley', describe: "paper: the paper's question (appendix E) with the annotators' context (backgrounds and goals), no further criterion; parley: the public setting and naturalness cues (default: DIR_A's run.json protocol, else parley)" },
    seed: { type: 'number', describe: 'seed of the presentation order (default 1)' },
    orders: { type: 'string', metavar: 'one|both', describe: "both: each pair judged in both presentation orders, a win only when they agree (default); one: one seeded random order per pair (the paper's design)" },
    reasoning: { type: 'string', metavar: 'ask|omit', describe: "ask: the judge writes a reasoning before its choice (default); omit: only the choice, as the paper's annotators answered" },
    concurrency: { type: 'number', describe: 'pairs judged at once (default 4)' },
    out: { type: 'string', metavar: 'FILE', describe: 'verdicts (default DIR_A/compare-<mode-a>-vs-<mode-b>.jsonl)' },
    'base-url': { type: 'string', metavar: 'URL', describe: 'provider base URL' },
    'api-key-env': { type: 'string', metavar: 'VAR', describe: 'env variable holding the key' },
    param: { type: 'string', multiple: true, metavar: 'KEY=VALUE', describe: 'client setting or sampling param (repeatable), e.g. structuredOutput=prompt; the temperature stays 0' },
    batch: { type: 'boolean', describe: "judge through the provider's Batch API at half price; resumable from <verdicts>.batch.json (see above)" },
    missing: { type: 'boolean', describe: 'keep the verdicts already saved in the verdicts file (and the journal an interrupted compare left) and judge only the other pairs (live judging)' },
    ...BATCH_RETRY_FLAGS,
  },
  positionals: { min: 2, max: 2, names: 'two run directories DIR_A DIR_B' },
};

/** `parley compare --human`: the human naturalness study's answers (`parley annotate`), summarised. */
export const humanSpec: CommandSpec = {
  name: 'compare',
  usage: 'parley compare --human ANN.jsonl [--verdicts FILE]',
  summary: `--human ANN.jsonl (answers of \`parley annotate\`): win rates with 95% Wilson intervals, agreement between
annotators (Fleiss' kappa; Cohen's with two annotators) and, when the LLM judge's verdicts exist
(--verdicts FILE, or the one compare-*.jsonl in RUN_A), agreement between humans and the judge.`,
  flags: {
    human: { type: 'string', metavar: 'ANN.jsonl', describe: 'answers written by parley annotate' },
    verdicts: { type: 'string', metavar: 'FILE', describe: "the LLM judge's verdicts on the same pairs (default: the one compare-*.jsonl in RUN_A)" },
  },
};

/** Both forms of `parley compare`, for help and the README check. */
export const specs: CommandSpec[] = [spec, humanSpec];

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
  if (argv.some((a) => a === '--human' || a.startsWith('--human='))) {
    const human = parseCommand(humanSpec, argv);
    if (!human) return 0;
    return compareHuman(human.flags.human as string, human.flags.verdicts as string | undefined);
  }
  const args = parseCommand(spec, argv);
  if (!args) return 0;
  const { positionals } = args;
  type Flags = { judge?: string; protocol?: string; orders?: string; reasoning?: string; 'mode-a'?: string; 'mode-b'?: string; out?: string; 'base-url'?: string; 'api-key-env'?: string; seed?: number; param?: string[]; batch?: boolean; missing?: boolean; 'batch-retry'?: string; 'batch-poll'?: number };
  const values = args.flags as Flags;
  if (!values.judge) throw new UsageError('--judge SPEC is required (e.g. --judge openai:gpt-4)');
  const seed = values.seed ?? 1;
  if (!Number.isInteger(seed)) throw new UsageError(`--seed must be an integer (got ${seed})`);
  const concurrency = positiveInt(args.flags, 'concurrency', 4);
  if (values.missing && values.batch) throw new UsageError('--missing is for live judging: an interrupted --batch compare resumes by running the same command again');
  const retry = batchRetryOf(values);
  const pollMs = batchPollMsOf(values);
  const params = judgeParamsOf(values.param ?? []);
  const runs = await loadBothRuns(positionals);
  if (!runs) return 1;
  const [a, b] = runs;
  const modeA = chooseMode(a, values['mode-a'], 'a');
  const modeB = chooseMode(b, values['mode-b'], 'b');
  for (const m of [modeA, modeB]) if (!(MODES as readonly string[]).includes(m)) throw new UsageError(m);
  // The naturalness form of the protocol named, else of the protocol run A followed (simulation/).
  const named = values.protocol === undefined ? recordedDefinition(a.run) : findDefinition(values.protocol);
  if (!named) throw new UsageError(`--protocol must be ${PROTOCOL_NAMES.join(' or ')} (got '${values.protocol}')`);
  const style = named.scoring.naturalness;
  const { orders, reasoning } = askedHow(values, named.scoring.naturalnessOrders);
  const pairs = matchEpisodes(a, modeA as Mode, b, modeB as Mode);
  if (pairs.length === 0) {
    console.error(`parley compare: no scenario was run (ok) in both ${a.dir} (${modeA}) and ${b.dir} (${modeB})`);
    return 1;
  }
  // Loaded only now: the provider SDKs take a while to load, and argument errors should not wait for them.
  const { createClient } = await import('../../llm/index.js');
  const endpoint = { ...(values['base-url'] ? { baseURL: values['base-url'] } : {}), ...(values['api-key-env'] ? { apiKeyEnv: values['api-key-env'] } : {}) };
  const client = judgeClientOf(createClient, values.judge, params, endpoint);
  console.error(`parley compare: ${pairs.length} pairs, A = ${a.dir} (${modeA}), B = ${b.dir} (${modeB}), judge ${values.judge}, question ${style}, ${orders === 'both' ? 'both orders' : 'one order'} per pair`);
  const out = values.out ?? path.join(a.dir, compareVerdictsName(modeA, modeB));
  // Writing inside a run: take its lock (a live compare holds it throughout, as it journals each verdict; a batch's wait needs none).
  const withWriteLock = writeLockFor(runDirHolding(out, [a.dir, b.dir]));
  const onProgress = (d: number, t: number) => console.error(`judged ${d}/${t} pairs`);
  try {
    let result: CompareResult;
    if (values.batch) {
      const batched = await compareBatched({ judge: values.judge, a, b, modeA, modeB, style, orders, reasoning, seed, concurrency, params, endpoint, client, retry, pollMs, out, pairs, withWriteLock, onProgress });
      if (batched === null) return 130;
      result = batched;
    } else {
      const resume = resumeCommand(argv);
      const live = await withWriteLock((write) => compareLive({ pairs, client, options: { seed, concurrency, style, orders, reasoning, onProgress }, out, missing: values.missing === true, resume, write }));
      if (live === 130) return 130;
      result = live;
    }
    console.log(`${resultText(result, modeA, orders)}\nwrote ${out}`);
    return result.n === 0 ? 1 : 0;
  } catch (err) {
    if (!(err instanceof RunDirBusy)) throw err;
    console.error(`parley compare: ${err.message}`);
    return 1;
  }
}

/** The judge's `--param KEY=VALUE` settings; the naturalness question is asked at temperature 0, so a sampling param cannot override it. */
function judgeParamsOf(given: string[]): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const p of given) {
    const [key, value] = parseParam(p);
    params[key] = value;
  }
  delete params['temperature'];
  return params;
}

/**
 * DIR_A and DIR_B loaded, or null (said on stderr) when either cannot be read. One run compared mode by
 * mode (the paper's `compare R R --mode-a script --mode-b agents`) is read once: each read parses and
 * checks every record (1,350 for the paper's grid); B keeps the name it was given.
 */
async function loadBothRuns(dirs: string[]): Promise<[RunDir, RunDir] | null> {
  const runs: RunDir[] = [];
  for (const dir of dirs) {
    const same = runs[0] && path.resolve(runs[0].dir) === path.resolve(dir);
    if (same) {
      runs.push({ ...runs[0]!, dir });
      continue;
    }
    const loaded = await loadRunDir(dir);
    if (!loaded.ok) {
      console.error(`parley compare: ${loaded.error.message}`);
      return null;
    }
    runs.push(loaded.run);
  }
  return runs as [RunDir, RunDir];
}

/** The judge's client; a spec or setting it refuses is a usage error. */
function judgeClientOf(
  createClient: typeof import('../../llm/index.js').createClient,
  judge: string,
  params: Record<string, unknown>,
  endpoint: { baseURL?: string; apiKeyEnv?: string },
): LlmClient {
  try {
    return createClient({ spec: judge, ...(Object.keys(params).length ? { params } : {}), ...endpoint });
  } catch (err) {
    throw new UsageError(`judge ${judge}: ${(err as Error).message}`);
  }
}

/** Runs `fn` with the lock of the run directory the verdicts go into, if they go into one (held while `fn` runs). */
function writeLockFor(inside: string | undefined) {
  return async <T>(fn: (write: WriteFile) => Promise<T>): Promise<T> => {
    const locked = inside ? await lockRunDir(inside, 'compare', 15_000) : null;
    if (locked && !locked.ok) throw new RunDirBusy(locked.message);
    try {
      return await fn((file, text) => writeOutputFile(locked?.ok ? locked.lock : null, file, text));
    } finally {
      if (locked?.ok) locked.lock.release();
    }
  };
}

/** This command again with `--missing` (printed when Ctrl-C stops it). */
function resumeCommand(argv: readonly string[]): string {
  const words = argv.includes('--missing') ? argv : [...argv, '--missing'];
  return terminalSafe(`parley compare ${words.map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`)).join(' ')}`);
}

/** `--orders` (default: the protocol definition's, simulation/) and `--reasoning` (default ask), checked. */
function askedHow(values: { orders?: string; reasoning?: string }, defaultOrders: Orders): { orders: Orders; reasoning: ReasoningAsk } {
  const orders = values.orders ?? defaultOrders;
  if (!(ORDERS as readonly string[]).includes(orders)) throw new UsageError(`--orders must be one or both (got '${orders}')`);
  const reasoning = values.reasoning ?? 'ask';
  if (reasoning !== 'ask' && reasoning !== 'omit') throw new UsageError(`--reasoning must be ask or omit (got '${reasoning}')`);
  return { orders: orders as Orders, reasoning };
}

/** The comparison's outcome: A's wins and rate, B's wins, ties (both orders), errors, then the position figures. */
function resultText(result: CompareResult, modeA: string, orders: Orders): string {
  const pct = (v: number | null) => (v === null ? '—' : `${(v * 100).toFixed(1)}%`);
  return (
    `A (${modeA}) judged more natural in ${result.winsA}/${result.n} pairs: ${pct(result.rate.p)} [95% Wilson ${pct(result.rate.lo)}, ${pct(result.rate.hi)}]` +
    `; B in ${result.winsB}` +
    (orders === 'both' ? `; ties (the two orders disagreed) ${result.ties}` : '') +
    (result.errors ? `; ${result.errors} pairs not judged (evaluation errors)` : '') +
    `\n${positionBiasText(result.position)}`
  );
}

/** Another command holds the run directory the verdicts go into (and did not let go within 15 s). */
class RunDirBusy extends Error {}


/** What `compare --batch` is given: the batch's options (evaluator/batch/compare-batch.ts) but those it derives, and the two runs. */
type CompareBatchedInput = Omit<CompareBatchOptions, 'key' | 'recordFile' | 'signal' | 'log'> & {
  judge: string;
  a: RunDir;
  b: RunDir;
  modeA: string;
  modeB: string;
  /** The verdicts file. */
  out: string;
};

/**
 * `compare --batch`: judges through a batch (evaluator/batch/compare-batch.ts), then writes the verdicts and marks the
 * batch collected under one lock. Null when Ctrl-C stopped it first: the batch stays recorded, pending.
 */
async function compareBatched(o: CompareBatchedInput): Promise<CompareResult | null> {
  const { compareInBatches, markCollected } = await import('../../evaluator/batch/compare-batch.js');
  const key = { judge: o.judge, question: o.style, seed: o.seed, runA: path.resolve(o.a.dir), runB: path.resolve(o.b.dir), modeA: o.modeA, modeB: o.modeB };
  const recordFile = compareBatchesFile(o.out);
  const controller = new AbortController();
  const onSigint = () => {
    if (controller.signal.aborted) process.exit(130);
    process.stderr.write('interrupted: stopping (Ctrl-C again to quit now); the batch stays recorded and the same command collects it\n');
    controller.abort();
  };
  process.on('SIGINT', onSigint);
  try {
    const { judge: _judge, a: _a, b: _b, modeA: _modeA, modeB: _modeB, out: _out, ...options } = o;
    const batched = await compareInBatches({ ...options, key, recordFile, signal: controller.signal, log: (line) => console.error(line) });
    const result = batched.result;
    if (!result) {
      console.error(`interrupted; run the same command again to collect ${batched.pendingBatch ? `batch ${terminalSafe(batched.pendingBatch)}` : 'the batch'} (recorded in ${recordFile})`);
      return null;
    }
    // The verdicts first, then the mark: killed between the two, the next run collects the same batch again.
    await o.withWriteLock(async (write) => {
      await write(o.out, verdictsText(result.verdicts));
      await markCollected(recordFile, key, batched.ended, write);
    });
    const usd = (v: number | null) => (v === null ? 'unpriced' : `~$${v.toFixed(4)}`);
    console.log(
      `naturalness requests: ${batched.fromBatch} answered by the batch (${usd(usdOf(o.judge, batched.batchUsage, true))} at the batch price), ` +
        `${batched.live} sent live (${usd(usdOf(o.judge, batched.liveUsage))}: failed batch requests, second attempts)`,
    );
    return result;
  } finally {
    process.off('SIGINT', onSigint);
  }
}

/**
 * `parley compare --human ANN.jsonl [--verdicts FILE]`: the human study's summary. The answers file is
 * written by people (annotators through the study page, anyone by hand): every line printed from it (run
 * names, a bad line's parse error, which quotes the line) goes through `terminalSafe`, so it can neither
 * drive the terminal nor forge a line of the summary.
 */
function compareHuman(file: string, verdictsFile: string | undefined): number {
  const out = (line: string) => console.log(terminalSafe(line));
  const err = (line: string) => console.error(terminalSafe(line));
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    err(`parley compare: cannot read ${file}: ${(e as Error).message}`);
    return 1;
  }
  const { annotations, bad } = parseAnnotations(text);
  for (const b of bad) err(`parley compare: ${file}:${b.line}: ${b.message} (line ignored)`);
  if (!annotations.length) {
    err(`parley compare: no answers in ${file}`);
    return 1;
  }
  const found = verdictsFile ?? judgeVerdictsNear(annotations[0]!.runA);
  let verdicts: JudgeVerdict[] | null = null;
  if (found) {
    try {
      verdicts = readJudgeVerdicts(found, (line) => err(`parley compare: ${line}`));
    } catch (e) {
      err(`parley compare: cannot read the judge verdicts ${found}: ${(e as Error).message}`);
      return 1;
    }
  }
  for (const line of humanSummaryLines(summariseHuman(annotations, verdicts))) out(line);
  if (found) out(`  (judge verdicts: ${found})`);
  return 0;
}

