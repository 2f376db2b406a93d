import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { DIMENSION_NAMES } from '../../evaluator/dimensions.js';
import { judgeVariants, readEvaluation } from '../../evaluator/evaluation.js';
import { selectionScores } from '../../evaluator/selection-scores.js';
import { loadRunDir, type RunDir } from '../../evaluator/run-dir.js';
import type { RunLock } from '../../run-dir/index.js';
import { lockRunDir, runDirHolding, writeOutputFile } from '../run-dir-lock.js';
import { loadTemplates } from '../../agent-node/policies/llm/index.js';
import { Mode } from '../../protocol/index.js';
import { exportChat, type ExportFile } from '../../training/export-chat.js';
import { CHAT_FORMATS, type ChatFormat } from '../../training/formats.js';
import { readSeatLedger, scriptLimits } from '../../training/ledgers.js';
import { EXCLUSION, type Selection } from '../../training/select.js';
import type { SourceEpisode } from '../../training/source.js';
import { summaryLines } from '../../training/summary.js';
import { tokenCounterFor } from '../../training/tokens.js';
import type { FlagSpecs } from '../args.js';
import { parseCommand, UsageError, type CommandSpec } from '../command.js';

/** Flags of `parley export --format openai-chat|mistral-chat`. */
export const CHAT_EXPORT_FLAGS: FlagSpecs = {
  format: { type: 'string', metavar: 'openai-chat|mistral-chat', describe: 'chat fine-tuning format' },
  out: { type: 'string', metavar: 'FILE', describe: 'training file (default DIR/finetune.<format>.jsonl); with --split, FILE.train.jsonl and FILE.validation.jsonl' },
  view: { type: 'string', metavar: 'agents|mindreaders', describe: "view script-mode turns are rendered into (default agents: the paper's Agents-ft data)" },
  mode: { type: 'list', metavar: 'MODES', describe: 'only these modes (script, agents, mindreaders)' },
  model: { type: 'list', metavar: 'MODELS', describe: "only moves by these models (name or provider:model; script episodes: the writer's)" },
  subset: { type: 'list', metavar: 'SUBSETS', describe: 'only scenarios in these subsets' },
  seat: { type: 'list', metavar: 'SEATS', describe: 'only these seats (agent1, agent2, …)' },
  min: { type: 'list', metavar: 'DIM=X,…', describe: "keep a seat only if its judge score on each dimension is ≥ X (e.g. goal=7; any dimension a rubric scored, e.g. warmth=3)" },
  'top-per-scenario': { type: 'number', metavar: 'K', describe: "per scenario and seat, the K episodes with the seat's best --by score (SOTOPIA-π self-reinforcement)" },
  by: { type: 'string', metavar: 'DIM', describe: 'score dimension for --top-per-scenario (default goal)' },
  split: { type: 'number', metavar: 'F', describe: 'train fraction of a split by scenario (no scenario in both files), e.g. 0.9' },
  seed: { type: 'number', metavar: 'N', describe: 'seed of the split (default 1)' },
  base: { type: 'string', metavar: 'PROVIDER:MODEL', describe: 'model to be trained, for the cost estimate (default openai:gpt-3.5-turbo-0125 / mistral:open-mistral-7b)' },
  epochs: { type: 'number', metavar: 'N', describe: 'training epochs, for the cost estimate (default 3)' },
  'keep-duplicates': { type: 'boolean', describe: 'keep examples whose messages repeat an earlier one (dropped and counted by default)' },
  'prompt-dir': { type: 'string', metavar: 'DIR', describe: "agent template directory (default: each run's own, else the built-in one)" },
};

const SUMMARY = `Training examples from one seat's perspective: for every (episode, seat, turn of that seat), the messages
that seat's agent was sent — rendered by the agent template from the seat's own view — then the move it
made as the assistant message. Live episodes replay the seat's ledger (the prompt equals the cassette's);
script episodes are turned into each character's own view through the projection. Episodes with errors are
excluded (and, when a score filter is used, episodes without evaluation); every exclusion is counted.
Beside each file, FILE.index.jsonl names the episode, seat and turn of every line.`;

/** `parley export --format openai-chat|mistral-chat`'s command line (the same command, its fine-tuning formats). */
export const chatSpec: CommandSpec = {
  name: 'export',
  usage: 'parley export DIR… --format openai-chat|mistral-chat [options]',
  summary: SUMMARY,
  flags: CHAT_EXPORT_FLAGS,
  positionals: { min: 1, max: Number.MAX_SAFE_INTEGER, names: 'at least one run directory' },
};

/** A usage mistake is thrown (one line, exit 2, by cli/main.ts); other failures print here with their code. */
const fail = (message: string, code = 2): number => {
  if (code === 2) throw new UsageError(message);
  console.error(`parley export: ${message}`);
  return code;
};

/** Every dimension name some judgement in the runs scored: what --min and --by may name. */
export function scoredDimensions(runs: readonly RunDir[]): Set<string> {
  const out = new Set<string>(DIMENSION_NAMES);
  for (const run of runs) {
    for (const { record } of run.episodes) {
      for (const j of judgeVariants(readEvaluation(record.evaluation)).values()) for (const d of j.judge.rubric?.dimensions ?? []) out.add(d.name);
    }
  }
  return out;
}

/** `DIR/x.jsonl` → `DIR/x.<suffix>.jsonl`. */
const beside = (file: string, suffix: string) => `${file.replace(/\.jsonl$/, '')}.${suffix}.jsonl`;

/** The export's settings from its flags, each checked (a bad one is a usage error: one line, exit 2). */
function chatOptionsOf(f: Record<string, unknown>, dirs: readonly string[]) {
  const format = f.format as ChatFormat;
  if (!CHAT_FORMATS.includes(format)) fail(`--format must be one of ${CHAT_FORMATS.join(', ')}`);
  if (dirs.length === 0) fail('name at least one run directory');
  const view = (f.view as string | undefined) ?? 'agents';
  if (view !== 'agents' && view !== 'mindreaders') fail(`--view must be agents or mindreaders (got '${view}')`);
  const modes = (f.mode as string[] | undefined) ?? [];
  for (const m of modes) if (!Mode.safeParse(m).success) fail(`--mode: unknown mode '${m}' (script, agents, mindreaders)`);
  const min: Record<string, number> = {};
  for (const item of (f.min as string[] | undefined) ?? []) {
    const m = /^([a-z][a-z0-9_]*)=(-?\d+(?:\.\d+)?)$/.exec(item);
    if (!m) fail(`--min: expected DIM=X, e.g. goal=7 (got '${item}')`);
    min[m![1]!] = Number(m![2]);
  }
  const by = (f.by as string | undefined) ?? 'goal';
  const k = f['top-per-scenario'] as number | undefined;
  if (k !== undefined && (!Number.isInteger(k) || k < 1)) fail('--top-per-scenario must be a positive integer');
  const fraction = f.split as number | undefined;
  if (fraction !== undefined && !(fraction > 0 && fraction < 1)) fail('--split must be a fraction between 0 and 1, e.g. 0.9');
  const seed = (f.seed as number | undefined) ?? 1;
  if (!Number.isInteger(seed)) fail('--seed must be an integer');
  const epochs = (f.epochs as number | undefined) ?? 3;
  if (!Number.isInteger(epochs) || epochs < 1) fail('--epochs must be a positive integer');
  const base = (f.base as string | undefined) ?? (format === 'openai-chat' ? 'openai:gpt-3.5-turbo-0125' : 'mistral:open-mistral-7b');
  const selection: Selection = {
    ...(modes.length ? { modes: modes as Mode[] } : {}),
    ...(f.model ? { models: f.model as string[] } : {}),
    ...(f.subset ? { subsets: f.subset as string[] } : {}),
    ...(f.seat ? { seats: f.seat as string[] } : {}),
    ...(Object.keys(min).length ? { min } : {}),
    ...(k !== undefined ? { top: { k, by } } : {}),
  };
  return { format, view: view as 'agents' | 'mindreaders', min, by, fraction, seed, epochs, base, selection };
}

/**
 * The agent template each seat's prompts came from: --prompt-dir, else the run's own per seat, else built-in
 * (each folder loaded once).
 */
export function templateRouter(runs: readonly RunDir[], promptDir: string | undefined) {
  const promptDirOf = new Map(runs.map((r) => [r.dir, (r.run?.config.agents ?? []).map((a) => a.promptDir)]));
  const templates = new Map<string, ReturnType<typeof loadTemplates>>();
  const templateAt = (dir: string | undefined) => {
    const key = dir ?? '';
    let t = templates.get(key);
    if (!t) templates.set(key, (t = loadTemplates(dir)));
    return t;
  };
  return (unit: { seat: string; source: SourceEpisode }) => {
    if (promptDir) return templateAt(promptDir);
    // Seat i was played by config.agents[i], the last entry repeating (orchestrator/run/plan.ts).
    const dirs = promptDirOf.get(unit.source.runDir) ?? [];
    const position = Math.min(unit.source.record.seats.findIndex((s) => s.seat === unit.seat), dirs.length - 1);
    return templateAt(unit.source.record.mode === 'script' || position < 0 ? undefined : dirs[position]);
  };
}

/** `scriptLimits` read once per script episode (its ledger was read again for each of its seats). */
function scriptLimitsOnce(): typeof scriptLimits {
  const read = new WeakMap<object, ReturnType<typeof scriptLimits>>();
  return (source) => {
    if (!read.has(source.record)) read.set(source.record, scriptLimits(source));
    return read.get(source.record)!;
  };
}

/** The runs named, loaded; null (said, exit 1) when one cannot be read. */
async function loadRuns(dirs: readonly string[]): Promise<RunDir[] | null> {
  const runs: RunDir[] = [];
  for (const dir of dirs) {
    const loaded = await loadRunDir(dir);
    if (!loaded.ok) {
      fail(loaded.error.message, 1);
      return null;
    }
    runs.push(loaded.run);
  }
  return runs;
}

/**
 * Writes each file and its index. Inside a run directory it takes its lock, as `export` and `eval` do (waits
 * up to 15 s for another writer, then names it), so the files appear beside an `eval` rewriting that run,
 * never under it. Returns what was written, or the lock's refusal.
 */
async function writeExportFiles(files: readonly ExportFile[], out: string, dirs: readonly string[]): Promise<{ written: string[] } | { busy: string }> {
  const written: string[] = [];
  const write = async (lock: RunLock | null, file: string, x: ExportFile) => {
    mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    await writeOutputFile(lock, file, x.text);
    await writeOutputFile(lock, beside(file, 'index'), x.index);
    written.push(`${file} (${x.examples.length} examples, ${new Set(x.examples.map((e) => e.scenarioId)).size} scenarios)`);
  };
  const inside = runDirHolding(out, dirs);
  const locked = inside ? await lockRunDir(inside, 'export', 15_000) : null;
  if (locked && !locked.ok) return { busy: locked.message };
  try {
    for (const x of files) await write(locked?.ok ? locked.lock : null, x.role === 'all' ? out : beside(out, x.role), x);
  } finally {
    if (locked?.ok) locked.lock.release();
  }
  return { written };
}

/** `parley export DIR… --format openai-chat|mistral-chat …`. */
export async function runChatExport(argv: string[]): Promise<number> {
  const parsed = parseCommand(chatSpec, argv);
  if (!parsed) return 0;
  const f = parsed.flags;
  const dirs = parsed.positionals;
  const { format, view, min, by, fraction, seed, epochs, base, selection } = chatOptionsOf(f, dirs);

  const runs = await loadRuns(dirs);
  if (!runs) return 1;
  // Any dimension a judge scored may be named: SOTOPIA-EVAL's seven, and every rubric's stored in the runs.
  const dims = scoredDimensions(runs);
  for (const d of Object.keys(min)) if (!dims.has(d)) return fail(`--min: no judge scored a dimension '${d}' in these runs (${[...dims].join(', ')})`);
  if (!dims.has(by)) return fail(`--by: unknown dimension '${by}' (${[...dims].join(', ')})`);
  const sources: SourceEpisode[] = runs.flatMap((run) =>
    run.episodes.map(({ record }) => ({ runDir: run.dir, record, scenario: run.scenarios.get(record.scenarioId) ?? null, scores: selectionScores(record.evaluation) })),
  );
  const protocolOfRun = new Map(runs.map((r) => [r.dir, r.run?.protocol]));
  let result;
  try {
    const tokens = await tokenCounterFor(base);
    result = exportChat(sources, {
      tokens,
      format,
      selection,
      view,
      dedupe: !f['keep-duplicates'],
      base,
      epochs,
      ...(fraction !== undefined ? { split: { fraction, seed } } : {}),
      readLedger: readSeatLedger,
      limitsOf: scriptLimitsOnce(),
      // Script episodes are rendered as the run's protocol told its agents (run.json, validated on read).
      protocolOf: (source) => protocolOfRun.get(source.runDir),
      templateFor: templateRouter(runs, f['prompt-dir'] as string | undefined),
    });
  } catch (err) {
    return fail((err as Error).message, 1);
  }
  if (!result.ok) {
    console.error(`parley export: ${result.message}`);
    for (const i of (result.issues ?? []).slice(0, 20)) console.error(`  ${i.line ? `line ${i.line}` : 'file'} (${i.example}): ${i.message}`);
    if ((result.issues?.length ?? 0) > 20) console.error(`  … and ${result.issues!.length - 20} more`);
    return 1;
  }
  const excludedText = () => {
    const ex = Object.entries(result.selection.excluded);
    return `excluded (episode, seat) pairs: ${ex.length ? ex.map(([r, n]) => `${EXCLUSION[r as keyof typeof EXCLUSION]} ×${n}`).join(', ') : 'none'}; duplicate examples dropped: ${result.duplicates}`;
  };
  if (result.summary.examples === 0) return fail(`no examples selected, nothing written; ${excludedText()}`, 1);
  const out = (f.out as string | undefined) ?? path.join(dirs[0]!, `finetune.${format}.jsonl`);
  const wrote = await writeExportFiles(result.files, out, dirs);
  if ('busy' in wrote) return fail(wrote.busy, 1);
  for (const w of wrote.written) console.log(`wrote ${w}`);
  for (const line of summaryLines(result.summary)) console.log(line);
  console.log(excludedText());
  for (const i of result.issues) console.log(`warning: ${i.message}`);
  const empty = result.files.find((x) => x.examples.length === 0);
  if (empty) console.log(`warning: the ${empty.role} file is empty (only ${result.summary.scenarios} scenario(s) to split)`);
  return 0;
}
