import { existsSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { loadRunDir, type RunDir } from '../../evaluator/run-dir.js';
import { panelMeanScores } from '../../evaluator/selection-scores.js';
import { readSeatLedger, scriptLimits } from '../../training/ledgers.js';
import { OPENAI_MIN_EXAMPLES, PAIR_FORMATS, pairIndexLine, pairLine, type PairFormat } from '../../training/pair-formats.js';
import { marginHistogram, PAIR_EXCLUSION, preferencePairs, type PairExclusion, type PairsResult } from '../../training/pairs.js';
import type { SourceEpisode } from '../../training/source.js';
import { terminalSafe } from '../../text/terminal.js';
import { commandRun, UsageError, type CommandSpec } from '../command.js';
import { consentFromFlags, consentProblem, CONSENT_FLAGS } from '../run-dir-consent.js';
import { lockRunDir, runDirHolding, writeOutputFile } from '../run-dir-lock.js';
import { scoredDimensions, templateRouter } from './export-chat.js';

/** `parley pairs`'s command line. */
export const spec: CommandSpec = {
  name: 'pairs',
  usage: 'parley pairs FORKS_DIR… --seat SEAT [--out FILE] [--min-margin N] [--score goal|DIM] [--format openai-dpo|trl]',
  summary: `Preference pairs from forks (parley fork): forked episodes are grouped by parent episode and fork turn;
siblings whose seat was sent the same prompt at the fork turn are ranked by the seat's judge score
(--score, default goal; a panel of judges by its mean), and every two siblings whose scores differ by at
least --min-margin make a pair: the seat's prompt at the fork turn (replayed from its ledger, the same
messages as its cassette request), the better sibling's move as the chosen reply, the worse one's as the
rejected one. FORKS_DIR is a fork run directory, or a directory holding fork run directories. Beside the
file, FILE.index.jsonl names the parent, turn, both episodes and their scores for every line.
openai-dpo: OpenAI preference fine-tuning lines (input.messages, preferred_output, non_preferred_output),
  for parley finetune submit FILE --provider openai --method dpo
trl: TRL's conversational preference lines (prompt, chosen, rejected)`,
  flags: {
    seat: { type: 'string', metavar: 'SEAT', describe: 'the seat whose moves are compared (agent1, agent2, …; required)' },
    out: { type: 'string', metavar: 'FILE', describe: 'pairs file (default FORKS_DIR/pairs.<format>.jsonl)' },
    'min-margin': { type: 'number', metavar: 'N', describe: 'keep pairs whose scores differ by at least N (default 1)' },
    score: { type: 'string', metavar: 'goal|DIM', describe: 'the score siblings are ranked by: goal (default) or any dimension a judge scored' },
    format: { type: 'string', metavar: 'openai-dpo|trl', describe: 'file format (default openai-dpo)' },
    'prompt-dir': { type: 'string', metavar: 'DIR', describe: "agent template directory (default: each run's own, read only with --allow-path, else the built-in one)" },
    'allow-path': CONSENT_FLAGS['allow-path']!,
  },
  positionals: { min: 1, max: Number.MAX_SAFE_INTEGER, names: 'at least one fork run directory (or a directory of them)' },
};

const fail = (message: string): never => {
  throw new UsageError(message);
};

/** The pairs' settings, each checked (a bad one is a usage error: one line, exit 2, nothing written). */
function optionsOf(f: Record<string, unknown>) {
  const seat = f.seat as string | undefined;
  if (!seat) fail('--seat SEAT is required (e.g. --seat agent1)');
  const format = ((f.format as string | undefined) ?? 'openai-dpo') as PairFormat;
  if (!PAIR_FORMATS.includes(format)) fail(`--format must be one of ${PAIR_FORMATS.join(', ')} (got '${format}')`);
  const minMargin = (f['min-margin'] as number | undefined) ?? 1;
  if (!(Number.isFinite(minMargin) && minMargin > 0)) fail('--min-margin must be a number above 0 (two siblings with the same score are no preference)');
  const by = (f.score as string | undefined) ?? 'goal';
  return { seat: seat!, format, minMargin, by };
}

/**
 * The run directories named: each one that holds episodes.jsonl, else its subdirectories that do (one
 * level; a symbolic link is not followed: the directory's contents are not the user's choice).
 */
function runDirsOf(named: readonly string[]): string[] {
  const out: string[] = [];
  for (const dir of named) {
    if (!existsSync(dir)) fail(`${dir}: no such directory`);
    if (existsSync(path.join(dir, 'episodes.jsonl'))) {
      out.push(dir);
      continue;
    }
    const inner = readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory() && !lstatSync(path.join(dir, d.name)).isSymbolicLink() && existsSync(path.join(dir, d.name, 'episodes.jsonl')))
      .map((d) => path.join(dir, d.name))
      .sort();
    if (!inner.length) fail(`${dir}: neither a run directory (no episodes.jsonl) nor a directory of run directories`);
    out.push(...inner);
  }
  return out;
}

async function loadRuns(dirs: readonly string[]): Promise<RunDir[]> {
  const runs: RunDir[] = [];
  for (const dir of dirs) {
    const loaded = await loadRunDir(dir);
    if (!loaded.ok) throw new Error(loaded.error.message);
    runs.push(loaded.run);
  }
  return runs;
}

/** A prompt directory a run's run.json names is read only with the user's consent (a run directory is untrusted). */
function checkPromptDirs(runs: readonly RunDir[], flags: Record<string, unknown>): void {
  if (flags['prompt-dir'] !== undefined) return;
  const consent = consentFromFlags(flags);
  for (const run of runs) {
    const policies = (run.run?.config.agents ?? []).map((a, i) => ({ where: `agent${i + 1}`, policy: { promptDir: a.promptDir } }));
    const refused = consentProblem(`${run.dir}/run.json`, policies, consent);
    if (refused) fail(refused.replace(/give that seat's policy on the command line\.$/, 'give --prompt-dir on the command line.'));
  }
}

/** What was made and what was left out, with the margins as a histogram. */
function summaryLines(r: PairsResult, by: string, minMargin: number): string[] {
  const hist = marginHistogram(r.pairs);
  const widest = Math.max(1, ...hist.map((h) => h.count));
  const excluded = Object.entries(r.excluded).map(([k, n]) => `${PAIR_EXCLUSION[k as PairExclusion]} ×${n}`);
  return [
    `${r.pairs.length} pairs from ${r.groups} sibling groups (${r.siblings} fork episodes), ranked by ${by}, margin ≥ ${minMargin}`,
    `margin histogram (${by}):`,
    ...hist.map((h) => `  [${h.from}, ${h.from + 1})  ${'#'.repeat(Math.max(1, Math.round((h.count / widest) * 30)))} ${h.count}`),
    `left out: ${excluded.length ? excluded.join(', ') : 'nothing'}`,
  ];
}

/** Writes the pairs file and its index, under the run directory's lock when it lies inside one. */
async function writePairs(out: string, text: string, index: string, dirs: readonly string[]): Promise<void> {
  const inside = runDirHolding(out, dirs);
  const locked = inside ? await lockRunDir(inside, 'pairs', 15_000) : null;
  if (locked && !locked.ok) throw new Error(locked.message);
  try {
    mkdirSync(path.dirname(path.resolve(out)), { recursive: true });
    await writeOutputFile(locked?.ok ? locked.lock : null, out, text);
    await writeOutputFile(locked?.ok ? locked.lock : null, `${out.replace(/\.jsonl$/, '')}.index.jsonl`, index);
  } finally {
    if (locked?.ok) locked.lock.release();
  }
}

/** `parley pairs FORKS_DIR… --seat SEAT …`. */
export const run = commandRun(spec, async (parsed) => {
  const f = parsed.flags;
  const { seat, format, minMargin, by } = optionsOf(f);
  const dirs = runDirsOf(parsed.positionals);
  let runs: RunDir[];
  try {
    runs = await loadRuns(dirs);
  } catch (err) {
    console.error(`parley pairs: ${(err as Error).message}`);
    return 1;
  }
  const dims = scoredDimensions(runs);
  if (!dims.has(by)) fail(`--score: no judge scored a dimension '${by}' in these runs (${[...dims].join(', ')})`);
  checkPromptDirs(runs, f);
  const sources: SourceEpisode[] = runs.flatMap((r) => r.episodes.map(({ record }) => ({ runDir: r.dir, record, scenario: r.scenarios.get(record.scenarioId) ?? null, scores: panelMeanScores(record.evaluation) })));
  if (!sources.some((s) => s.record.seats.some((x) => x.seat === seat))) fail(`--seat: no episode of these runs has a seat '${seat}'`);
  const result = preferencePairs(sources, { seat, by, minMargin, readLedger: readSeatLedger, limitsOf: scriptLimits, templateFor: templateRouter(runs, f['prompt-dir'] as string | undefined) });
  if (!result.ok) {
    console.error(`parley pairs: ${terminalSafe(result.message)}`);
    return 1;
  }
  const lines = summaryLines(result, by, minMargin);
  if (!result.pairs.length) {
    console.error(`parley pairs: no pair has a margin of at least ${minMargin}; nothing written`);
    for (const l of lines) console.error(l);
    return 1;
  }
  const out = (f.out as string | undefined) ?? path.join(parsed.positionals[0]!, `pairs.${format}.jsonl`);
  const text = result.pairs.map((p) => pairLine(format, p) + '\n').join('');
  const index = result.pairs.map((p, i) => pairIndexLine(p, i + 1, by) + '\n').join('');
  try {
    await writePairs(out, text, index, dirs);
  } catch (err) {
    console.error(`parley pairs: ${(err as Error).message}`);
    return 1;
  }
  console.log(`wrote ${out} (${result.pairs.length} pairs, ${format})`);
  for (const l of lines) console.log(l);
  if (format === 'openai-dpo' && result.pairs.length < OPENAI_MIN_EXAMPLES) console.log(`warning: OpenAI asks for at least ${OPENAI_MIN_EXAMPLES} examples in a fine-tuning file`);
  return 0;
});
