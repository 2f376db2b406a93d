import { interruptStages, STOP_BOUND_MS } from '../interrupt-stages.js';
import { existsSync } from 'node:fs';
import { consentFromFlags, consentProblem, CONSENT_FLAGS } from '../run-dir-consent.js';
import { commandRun, parseParam, positiveInt, UsageError, type CommandSpec } from '../command.js';
import type { EvaluateProgress, EvaluateRunResult } from '../../evaluator/evaluate-run.js';
import { estimateCost } from '../../llm/cost.js';
import { loadRunDir, type RunDir } from '../../evaluator/run-dir.js';
import { planJudging } from '../../evaluator/plan-judging.js';
import type { JudgeView } from '../../evaluator/judge/prompt.js';
import { BUILTIN_RUBRICS, SOTOPIA_RUBRIC } from '../../evaluator/rubric/builtin.js';
import { loadRubric } from '../../evaluator/rubric/load-rubric.js';
import type { Rubric } from '../../evaluator/rubric/rubric.js';
import { terminalSafe } from '../../text/terminal.js';
import { modelRefOf, type PolicyConfig } from '../../protocol/index.js';
import { resolveJudgeView } from '../../simulation/index.js';
import { llmSpecProblem } from '../../llm/spec.js';
import { readRunJson, RunPaths, type RecordedRunConfig, type RunLock } from '../../run-dir/index.js';
import { BATCH_PRICE_FACTOR, judgePlanLines } from '../plan/judge-estimate.js';
import { lockRunDir } from '../run-dir-lock.js';
import type { BatchJudgeResult } from '../../evaluator/batch/eval-batch.js';
import { judgePanel, type JudgePanelEvents } from '../../evaluator/judge-panel.js';
import { BATCH_RETRY_FLAGS, batchPollMsOf, batchRetryOf } from '../batch-flags.js';

/** `parley eval`'s command line. */
export const spec: CommandSpec = {
  name: 'eval',
  usage: 'parley eval DIR --judge SPEC [options]',
  summary: `(Re)evaluates a finished run with an LLM judge on a rubric (default: SOTOPIA-EVAL's seven dimensions)
and stores, per episode and seat, every score with its reasoning (or an evaluation error) in the
\`evaluation\` field of DIR/episodes.jsonl, rewritten atomically. Craigslist episodes also get the judge's
reading of the deal (default rubric). --judge may be repeated: a panel, each judge's scores kept apart
with its model, provider, prompt version and rubric hash; \`parley report\` then gives their agreement.
It holds the run directory's lock while it works: started next to a \`parley run\` writing DIR, it says
so and waits for that run to end, then judges every record.
--batch sends the judge requests through the provider's batch interface (half price, results within a
day): one JSONL upload and one batch per judge, its id recorded in DIR/run.json; the command polls until
the batch ends, printing its status and request counts. Stopped (Ctrl-C, a crash) and started again, the
same command collects the recorded batch instead of submitting another. openai: judges (OpenAI and
compatible servers with /v1/files and /v1/batches) and mistral: judges (Mistral's batch jobs).`,
  flags: {
    judge: { type: 'string', multiple: true, metavar: 'SPEC', describe: "judge model, e.g. openai:gpt-4, mistral:mistral-large-latest; repeat for a panel (default: run.json's judge)" },
    rubric: { type: 'string', metavar: 'FILE|NAME', describe: "what the judge scores: a rubric YAML file, or built-in sotopia (SOTOPIA-EVAL, the default) or goal (goal only); see docs/rubrics.md" },
    'dry-run': { type: 'boolean', describe: 'print the judge calls, estimated tokens and cost per judge, and send nothing' },
    blind: { type: 'boolean', describe: "the judge sees only the public transcript and each seat's own goal (default: full background, like SOTOPIA)" },
    'judge-view': { type: 'string', metavar: 'paper|parley', describe: "paper: exactly SOTOPIA's judge information (scenario, both bios with secrets, both goals, Turn #k transcript), one user message, no response_format; parley: the richer view (default: the run's judgeView in run.json, else paper for runs with --protocol paper, else parley)" },
    'reformat-model': { type: 'string', metavar: 'SPEC', describe: "paper view: the model asked once to reformat an unreadable judge reply (default: the run's judge's reformat in run.json, else openai:gpt-3.5-turbo for openai: judges, as SOTOPIA, else the judge)" },
    concurrency: { type: 'number', describe: 'episodes judged at once (default 4)' },
    missing: { type: 'boolean', describe: 'only episodes not yet scored by each judge on this rubric, or whose evaluation failed' },
    'no-wait': { type: 'boolean', describe: 'if another command is writing DIR, stop at once naming it (default: wait)' },
    'base-url': { type: 'string', metavar: 'URL', describe: "provider base URL (else the run's judge's baseURL if --allow-endpoint allows it, else OPENAI_BASE_URL / MISTRAL_BASE_URL)" },
    'api-key-env': { type: 'string', metavar: 'VAR', describe: "env variable holding the key (else the run's judge's apiKeyEnv if --allow-key-env allows it, else OPENAI_API_KEY / MISTRAL_API_KEY)" },
    param: { type: 'string', multiple: true, metavar: 'KEY=VALUE', describe: 'client setting or sampling param (repeatable), e.g. structuredOutput=json_object; temperature=T (0-2) replaces the judge\'s default 0 and is recorded with the scores' },
    batch: { type: 'boolean', describe: "judge through the provider's Batch API at half price; resumable from run.json (see above)" },
    attribute: { type: 'boolean', describe: "after judging, split each seat's goal score over its moves (as sotopia-rl): one request per seat; stored as evaluation.attribution, shares summing to the score; for export --format rewards" },
    'attribution-model': { type: 'string', metavar: 'SPEC', describe: 'with --attribute: the model that weighs the moves (default: the first --judge)' },
    ...BATCH_RETRY_FLAGS,
    'allow-endpoint': CONSENT_FLAGS['allow-endpoint']!,
    'allow-key-env': CONSENT_FLAGS['allow-key-env']!,
    'allow-path': CONSENT_FLAGS['allow-path']!,
  },
  positionals: { min: 1, max: 1, names: 'one run directory' },
};

/** `parley eval DIR --judge SPEC [--judge SPEC…] [--rubric FILE] [--blind] [--dry-run] [--concurrency N]`. */
export const run = commandRun(spec, async (args) => {
  const values = args.flags as EvalFlags;
  const dir = args.positionals[0]!;
  const concurrency = positiveInt(args.flags, 'concurrency', 4);
  if (!existsSync(dir)) {
    console.error(`parley eval: ${dir}: no such run directory`);
    return 1;
  }
  // The rubric before anything else: a broken rubric file is a usage error, and nothing is locked or written.
  const rubric = rubricOf(values.rubric, recordedRubric(dir, values));
  batchRetryOf(values);
  batchPollMsOf(values);
  attributionSettingsProblem(values);
  if (values['dry-run'] === true) return dryRun(dir, values, rubric);
  // The lock before the read: no writer may append between the read and the rewrite of episodes.jsonl.
  const locked = await lockRunDir(dir, 'eval', args.flags['no-wait'] === true ? 0 : Infinity);
  if (!locked.ok) {
    console.error(`parley eval: ${locked.message}`);
    return 1;
  }
  try {
    return await evaluateLocked(locked.lock, dir, values, concurrency, rubric);
  } finally {
    locked.lock.release();
  }
});

type EvalFlags = { attribute?: boolean; 'attribution-model'?: string; 'allow-path'?: string[]; batch?: boolean; 'batch-retry'?: string; 'batch-poll'?: number; judge?: string[]; rubric?: string; 'dry-run'?: boolean; 'judge-view'?: string; 'reformat-model'?: string; blind?: boolean; missing?: boolean; 'base-url'?: string; 'api-key-env'?: string; param?: string[] };

/** The run's recorded configuration (run.json), read without the lock: only its judge and rubric are used. */
function runConfigOf(dir: string): RecordedRunConfig | undefined {
  const read = readRunJson(new RunPaths(dir));
  return read.ok ? (read.run?.config) : undefined;
}

/**
 * The rubric run.json names, when --rubric does not: a built-in name as it is; a file path only with the
 * user's consent (`--allow-path PATH`), since a run directory is untrusted input and must not choose a file
 * for Parley to read (issue 35). A refusal is one line naming the field and the flag, exit 2.
 */
function recordedRubric(dir: string, values: EvalFlags): string | undefined {
  if (values.rubric !== undefined) return undefined;
  const recorded = runConfigOf(dir)?.rubric;
  if (recorded === undefined || BUILTIN_RUBRICS.has(recorded)) return recorded;
  const refused = consentProblem(`${dir}/run.json`, [], consentFromFlags(values as Record<string, unknown>), [{ where: 'the rubric file', path: recorded }]);
  if (refused) throw new UsageError(`${refused.replace(/give that seat's policy on the command line\.$/, 'give --rubric on the command line.')}`);
  return recorded;
}

/** `--rubric`, else the run's own (an experiment file's `rubric:`), else SOTOPIA-EVAL. A bad file is a usage error (exit 2). */
function rubricOf(flag: string | undefined, fromRun: string | undefined): Rubric {
  const arg = flag ?? fromRun;
  if (!arg) return SOTOPIA_RUBRIC;
  const loaded = loadRubric(arg);
  if (!loaded.ok) throw new UsageError(loaded.message);
  return loaded.rubric;
}

/**
 * The judges of this invocation: every --judge, else run.json's judge — with its params and, from an
 * experiment file's `judge:` block, its endpoint, key variable and reformat model (`fromRun`); a --judge
 * replaces all of them.
 */
function judgesOf(values: EvalFlags, config: RecordedRunConfig | undefined): { specs: string[]; runParams: Record<string, unknown>; fromRun?: Partial<PolicyConfig> } {
  const specs = values.judge?.length ? [...new Set(values.judge)] : config?.judge?.spec ? [config.judge.spec] : [];
  if (!specs.length) throw new UsageError('--judge SPEC is required (e.g. --judge openai:gpt-4); run.json names no judge');
  if (values.judge?.length) return { specs, runParams: {} };
  return { specs, runParams: config?.judge?.params ?? {}, ...(config?.judge ? { fromRun: config.judge } : {}) };
}

/**
 * run.json is untrusted: the endpoint and key variable it gives the judge (and its reformat model) are
 * used only when the user repeats them (--base-url, --api-key-env) or allows them by flag.
 */
function judgeEndpoint(dir: string, values: EvalFlags, fromRun: Partial<PolicyConfig> | undefined): { baseURL?: string; apiKeyEnv?: string } {
  const recordedReformat = values['reformat-model'] === undefined ? fromRun?.reformat : undefined;
  const refused = consentProblem(`${dir}/run.json`, [{
    where: 'the judge',
    policy: {
      ...(values['base-url'] === undefined && fromRun?.baseURL !== undefined ? { baseURL: fromRun.baseURL } : {}),
      ...(values['api-key-env'] === undefined && fromRun?.apiKeyEnv !== undefined ? { apiKeyEnv: fromRun.apiKeyEnv } : {}),
      ...(recordedReformat ? { reformat: recordedReformat } : {}),
    },
  }], consentFromFlags(values as Record<string, unknown>));
  if (refused) throw new UsageError(refused);
  const baseURL = values['base-url'] ?? fromRun?.baseURL;
  const apiKeyEnv = values['api-key-env'] ?? fromRun?.apiKeyEnv;
  return { ...(baseURL ? { baseURL } : {}), ...(apiKeyEnv ? { apiKeyEnv } : {}) };
}

/** What the full judge is shown: --judge-view, else the run's judgeView (run.json), else paper for paper-protocol runs. */
function viewOf(values: EvalFlags, loaded: RunDir): JudgeView {
  const config = loaded.run?.config;
  const protocol = loaded.run?.protocol?.name ?? config?.protocol;
  const view = resolveJudgeView(values['judge-view'], config?.judgeView, protocol);
  if (!view) throw new UsageError(`--judge-view must be paper or parley (got '${values['judge-view']}')`);
  return view;
}

/** `--dry-run`: the real judge requests are built and measured; no client is made and nothing is sent or written. */
async function dryRun(dir: string, values: EvalFlags, rubric: Rubric): Promise<number> {
  const loaded = await loadRunDir(dir);
  if (!loaded.ok) {
    console.error(`parley eval: ${loaded.error.message}`);
    return 1;
  }
  const { specs } = judgesOf(values, loaded.run.run?.config);
  for (const s of specs) {
    const problem = llmSpecProblem(s);
    if (problem) throw new UsageError(`--judge ${s}: ${problem}`);
  }
  const visibility = values.blind ? 'blind' : 'full';
  const view = viewOf(values, loaded.run);
  const plans = planJudging(loaded.run, { specs, rubric, visibility, view, missingOnly: values.missing === true });
  for (const line of judgePlanLines(plans, { dir, rubric, visibility, view, batch: values.batch === true })) console.log(line);
  return 0;
}

async function evaluateLocked(lock: RunLock, dir: string, values: EvalFlags, concurrency: number, rubric: Rubric): Promise<number> {
  const loaded = await loadRunDir(dir);
  if (!loaded.ok) {
    console.error(`parley eval: ${loaded.error.message}`);
    return 1;
  }
  if (loaded.run.tornBytes) console.error(`parley eval: ${dir}/episodes.jsonl ends in a torn line (${loaded.run.tornBytes} bytes, an interrupted write): not a record, left out`);
  const { specs, runParams, fromRun } = judgesOf(values, loaded.run.run?.config);
  const visibility = values.blind ? 'blind' : 'full';
  const view = viewOf(values, loaded.run);
  const params: Record<string, unknown> = { ...runParams };
  for (const p of values.param ?? []) {
    const [key, value] = parseParam(p);
    params[key] = value;
  }
  // The judge's temperature goes on every judge request (default 0, SOTOPIA's), so it is taken out of the
  // client's defaults, which a request's own temperature would override.
  const temperature = judgeTemperature(params['temperature']);
  delete params['temperature'];
  const endpoint = judgeEndpoint(dir, values, fromRun);
  const rubricNote = rubric === SOTOPIA_RUBRIC ? '' : `, rubric ${terminalSafe(rubric.name)} ${rubric.hash.slice(0, 12)}`;
  const header = `parley eval: ${loaded.run.episodes.length} episodes in ${dir}, judge ${specs.join(' + ')} (${visibility}, ${view} view${rubricNote}), concurrency ${concurrency}`;
  const resume = `parley eval ${dir}${specs.map((s) => ` --judge ${s}`).join('')}${values.rubric ? ` --rubric ${values.rubric}` : ''} --judge-view ${view}${values.blind ? ' --blind' : ''}${values.batch ? ' --batch' : ''} --missing`;
  const printer = panelPrinter(dir, specs.length > 1, values.batch === true, resume);
  const stop = printer.interruptStages();
  try {
    const { failedJudges } = await judgePanel(
      {
        dir, lock, run: loaded.run, specs, params, endpoint, visibility, view, rubric, concurrency,
        ...(temperature !== undefined ? { temperature } : {}),
        ...(values['reformat-model'] !== undefined ? { reformatFlag: values['reformat-model'] } : {}),
        ...(fromRun?.reformat ? { recordedReformat: fromRun.reformat } : {}),
        missingOnly: values.missing === true,
        ...(values.batch ? { batch: { retry: batchRetryOf(values), pollMs: batchPollMsOf(values) } } : {}),
        signal: stop.signal,
        abandon: stop.abandon,
      },
      { ...printer.events, ready: () => console.error(header) },
    );
    if (stop.signal.aborted) {
      console.error(printer.saved());
      return 130;
    }
    const attributionFailed = values.attribute ? await attributeLocked(lock, loaded.run, specs, params, endpoint, concurrency, values, stop.signal) : false;
    if (stop.signal.aborted) {
      console.error(printer.saved());
      return 130;
    }
    return failedJudges > 0 || attributionFailed ? 1 : 0;
  } finally {
    stop.dispose();
  }
}

/** `--attribute`'s settings: refused (one line, exit 2) where they would not take effect. */
function attributionSettingsProblem(values: EvalFlags): void {
  if (values['attribution-model'] !== undefined && !values.attribute) throw new UsageError('--attribution-model is for --attribute');
  if (!values.attribute) return;
  if (values['dry-run']) throw new UsageError('--attribute is not priced by --dry-run yet: leave one of them out');
  if (values.batch) throw new UsageError('--attribute sends its requests live and --batch sends the judge\'s through a batch: run eval --batch first, then eval --attribute --missing');
  const problem = values['attribution-model'] !== undefined ? llmSpecProblem(values['attribution-model']) : null;
  if (problem) throw new UsageError(`--attribution-model ${values['attribution-model']}: ${problem}`);
}

/**
 * `--attribute`, after the judges: each judged episode's goal scores split over the seats' moves by the
 * attribution model (same endpoint and client settings as the judges). True when no seat could be split.
 */
async function attributeLocked(lock: RunLock, run: RunDir, judges: readonly string[], params: Record<string, unknown>, endpoint: { baseURL?: string; apiKeyEnv?: string }, concurrency: number, values: EvalFlags, signal: AbortSignal): Promise<boolean> {
  const spec = values['attribution-model'] ?? judges[0]!;
  const { createClient } = await import('../../llm/index.js');
  let client;
  try {
    client = createClient({ spec, params, ...endpoint });
  } catch (err) {
    throw new UsageError(`attribution model ${spec}: ${(err as Error).message}`);
  }
  const { attributeRun } = await import('../../evaluator/attribution/attribute-run.js');
  console.error(`parley eval: attributing goal scores to moves with ${spec}`);
  const r = await attributeRun(run, { lock, client, spec, concurrency, missingOnly: values.missing === true, signal });
  const errs = Object.entries(r.errors).map(([c, n]) => `${c} ×${n}`).join(', ');
  console.log(`attributed ${r.attributed} episodes: ${r.splitSeats} seats split, ${r.errorSeats} attribution errors${errs ? ` (${errs})` : ''}${r.skipped ? `; ${r.skipped} episodes not split (failed, not judged${values.missing ? ', or split already' : ''})` : ''}`);
  return r.errorSeats > 0 && r.splitSeats === 0;
}

/**
 * What `parley eval` prints while its panel judges: the progress line (rewritten in place on a terminal),
 * each judge's summary, and on Ctrl-C how many judgements are saved and the command that resumes. Every
 * judgement is in the journal the moment it returns (evaluator/evaluate-run.ts), so neither Ctrl-C loses one.
 */
function panelPrinter(dir: string, panel: boolean, batch: boolean, resume: string) {
  const tty = process.stderr.isTTY;
  let judgedEarlier = 0;
  let judgedNow = 0;
  let startedAt = Date.now();
  const saved = () => `${judgedEarlier + judgedNow} judged and saved; resume with \`--missing\`: ${resume}`;
  const events: JudgePanelEvents = {
    judgeStarts(spec) {
      judgedEarlier += judgedNow;
      judgedNow = 0;
      startedAt = Date.now();
      if (panel) console.log(`judge ${spec}:`);
    },
    progress(spec, p) {
      judgedNow = p.done;
      const line = evalProgressLine(p, Date.now() - startedAt, costOf(spec, p.usage, batch));
      if (tty) process.stderr.write(`\r\u001b[2K${line}`);
      else console.error(line);
    },
    log: (line) => console.error(line),
    judged(spec, result, batched) {
      if (batched) console.log(batchSummaryLine(spec, batched));
      if (tty) process.stderr.write('\n');
      console.log(resultLines(dir, result));
    },
  };
  return {
    events,
    saved,
    interruptStages: () =>
      interruptStages({
        first: () => process.stderr.write(`${tty ? '\n' : ''}interrupted: no new judge calls; the ones in flight finish (at most ${STOP_BOUND_MS / 1000} s; Ctrl-C again to quit now, losing nothing already returned)\n`),
        second: () => {
          process.stderr.write(`${tty ? '\n' : ''}${saved()}\n`);
          process.exit(130);
        },
      }),
  };
}

/** `judge requests: N answered by the batch (~$…), M sent live (~$…)`: the two prices of a batch judge. */
function batchSummaryLine(spec: string, batched: BatchJudgeResult): string {
  const usdText = (v: number | null) => (v === null ? 'unpriced' : `~$${v.toFixed(4)}`);
  return (
    `judge requests: ${batched.fromBatch} answered by the batch (${usdText(costOf(spec, batched.batchUsage, true))} at the batch price), ` +
    `${batched.live} sent live (${usdText(costOf(spec, batched.liveUsage))}: failed batch requests, retries, reformat requests)`
  );
}

/** One judge's summary: episodes judged, seats scored, evaluation errors by code, what was skipped. */
function resultLines(dir: string, result: EvaluateRunResult): string {
  const errs = Object.entries(result.errors).map(([c, n]) => `${c} ×${n}`).join(', ');
  return (
    `evaluated ${result.judged} episodes: ${result.scoredSeats} seats scored, ${result.errorSeats} evaluation errors${errs ? ` (${errs})` : ''}` +
    (result.skippedFailed ? `; ${result.skippedFailed} failed episodes not judged` : '') +
    (result.skippedDone ? `; ${result.skippedDone} already scored` : '') +
    (result.formatFallbacks ? `; ${result.formatFallbacks} judge calls without response_format (schema in the prompt or JSON mode: the server rejected it)` : '') +
    `\nwrote ${dir}/episodes.jsonl`
  );
}

/** `--param temperature=T` for the judge: a number from 0 to 2, else refused (undefined: not given). */
function judgeTemperature(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 2) throw new UsageError(`--param temperature: expected a number from 0 to 2 (got ${JSON.stringify(value)})`);
  return value;
}

/** Estimated US$ of judge usage (at the batch price under --batch), or null when the price table has no price for the model. */
function costOf(spec: string, usage: { prompt: number; completion: number }, batch = false): number | null {
  const { provider, model } = modelRefOf(spec) ?? { provider: '', model: spec };
  try {
    const usd = estimateCost(provider, model, { prompt: usage.prompt, completion: usage.completion, cached: 0 });
    return usd === null ? null : usd * (batch ? BATCH_PRICE_FACTOR : 1);
  } catch {
    return null;
  }
}

/** `judged 12/300 episodes · 22 seats scored · 0 evaluation errors · 34.5k tokens · ~$0.0123 · ETA 4m10s` */
export function evalProgressLine(p: EvaluateProgress, elapsedMs: number, usd: number | null): string {
  const tokens = p.usage.prompt + p.usage.completion;
  const k = tokens >= 1000 ? `${(tokens / 1000).toFixed(1)}k` : String(tokens);
  const left = p.total - p.done;
  const etaS = p.done ? Math.round(((elapsedMs / p.done) * left) / 1000) : null;
  const eta = left === 0 ? 'done' : etaS === null ? 'ETA …' : `ETA ${etaS >= 60 ? `${Math.floor(etaS / 60)}m${String(etaS % 60).padStart(2, '0')}s` : `${etaS}s`}`;
  return `judged ${p.done}/${p.total} episodes · seats scored ${p.scoredSeats} · evaluation errors ${p.errorSeats} · ${k} tokens · ${usd === null ? 'cost unpriced' : `~$${usd.toFixed(4)}`} · ${eta}`;
}
