import path from 'node:path';
import { mkdir } from 'node:fs/promises';
import { writeFileAtomic } from '../../disk/atomic-write.js';
import { loadRunDir } from '../../evaluator/run-dir.js';
import type { EpisodeMetrics } from '../../evaluator/metrics/episode-metrics.js';
import { runExperiment } from '../run-experiment.js';
import type { RunConfig } from '../../orchestrator/run-config.js';
import type { PolicyConfig } from '../../protocol/index.js';
import { terminalSafe } from '../../text/terminal.js';
import { commandRun, UsageError, type CommandSpec } from '../command.js';
import { toRunConfigInput } from '../experiment.js';
import { applyRateLimits, badLimit, type RateLimits } from '../rate-limits.js';
import { buildRunConfig } from '../plan/run-config.js';
import { BATCH_RETRY_FLAGS, batchPollMsOf, batchRetryOf } from '../batch-flags.js';
import { loadClaim, PAIRWISE_METRICS, type Claim } from '../multiverse/claim.js';
import { compareSides, naturalnessEffect, naturalnessTasks, type NaturalnessTask } from '../multiverse/naturalness.js';
import { distinctArms, planSpecifications, type Arm, type Specification } from '../multiverse/plan.js';
import { pairedEffect, summarizeCurve } from '../multiverse/effect.js';
import { writeCurveReport, type CurveRow } from '../multiverse/curve-report.js';
import { judgeArms, judgeTasks, judgingKey, type JudgeTask } from '../multiverse/judge-arms.js';
import { armMetrics } from '../multiverse/arm-metrics.js';
import { planSweep } from '../multiverse/dry-run-plan.js';
import { axisSwings } from '../multiverse/swing.js';
import { isUserInstructions } from '../multiverse/instructions.js';
import { consentFromFlags, CONSENT_FLAGS } from '../run-dir-consent.js';
import { progressPrinter } from '../progress-line.js';
import { eachAtOnce } from '../multiverse/each-at-once.js';
import { evalProgressLine } from './eval.js';
import { exitWithLauncher, interruptSignal, keyPreflight } from './run.js';

export const spec: CommandSpec = {
  name: 'multiverse',
  usage: 'parley multiverse CLAIM.yaml --out DIR [options]',
  summary: `Does a claim survive its reasonable alternatives? Plans every specification of the claim file (the
cartesian product of its axes), runs each distinct arm once under DIR/arms/<identity> (a rerun resumes
and starts no recorded episode), judges each arm once per judge a specification asks for (a judge axis
re-judges the same runs; episodes a judge already scored are not judged again), and writes
DIR/multiverse.json and DIR/report.md|html with the specification curve, the share of specifications
holding in sign, the median effect and a verdict. Metrics: success, words_per_turn, moves, repetition,
goal (judged). Axes: any experiment key, plus model, temperature and instructions (the prompts' framing:
default, a shipped variant such as goal-first, or a directory of yours with --allow-path) for every
LLM seat, and judge. multiverse.json and the report add, per axis, the swing of the effect between its values.`,
  flags: {
    out: { type: 'string', metavar: 'DIR', describe: 'the multiverse directory (rerunning with the same DIR resumes)' },
    concurrency: { type: 'number', describe: 'episodes in flight at once within an arm, and judge calls at once (default 4)' },
    rpm: { type: 'number', metavar: 'N', describe: 'requests per minute per provider account for every LLM seat and judge' },
    batch: { type: 'boolean', describe: "judge through the provider's Batch API at half price (as parley eval --batch; resumable)" },
    ...BATCH_RETRY_FLAGS,
    'dry-run': { type: 'boolean', describe: 'print the number of specifications, arms, episodes, calls and the estimated cost; send nothing, write nothing' },
    'allow-path': { ...CONSENT_FLAGS['allow-path']!, describe: 'read prompt templates from this directory of your own, named by the claim\'s instructions (repeatable)' },
  },
  positionals: { min: 1, max: 1, names: 'CLAIM.yaml' },
};

/** Arms run at once. */
const ARMS_AT_ONCE = 4;

interface PlannedArm {
  arm: Arm;
  config: RunConfig;
}

const claimText = (c: Claim) => `${c.claim.metric}: a ${JSON.stringify(c.claim.a)} ${c.claim.expect.slice(2, 3)} b ${JSON.stringify(c.claim.b)}`;
const choicesText = (s: Specification) => Object.entries(s.choices).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(', ');

/** Each distinct arm's run configuration, checked by the run's own config builder before anything is written. */
function planArms(specs: readonly Specification[], out: string, concurrency: number | undefined, limits: RateLimits): PlannedArm[] {
  const planned: PlannedArm[] = [];
  for (const arm of distinctArms(specs)) {
    // Operational settings (directory, concurrency, rate limits) are added after the arm's identity is taken.
    const input = applyRateLimits({ ...toRunConfigInput(arm.experiment), out: path.join(out, 'arms', arm.id), ...(concurrency !== undefined ? { concurrency } : {}) }, limits, true);
    const built = buildRunConfig({}, input);
    if (!built.ok) {
      const used = specs.find((s) => s.a.id === arm.id || s.b.id === arm.id)!;
      throw new UsageError(`specification ${used.index} (${choicesText(used)}): ${built.message}`);
    }
    planned.push({ arm, config: built.config });
  }
  return planned;
}

interface Flags {
  out: string;
  concurrency: number | undefined;
  limits: RateLimits;
  batch: { retry: ReturnType<typeof batchRetryOf>; pollMs: number } | undefined;
  dryRun: boolean;
}

function flagsOf(values: Record<string, unknown>): Flags {
  const out = values['out'];
  if (typeof out !== 'string') throw new UsageError('--out DIR is required (the multiverse directory)');
  const concurrency = values['concurrency'] as number | undefined;
  if (concurrency !== undefined && (!Number.isInteger(concurrency) || concurrency <= 0)) throw new UsageError('--concurrency must be a positive integer');
  const rpmProblem = badLimit('--rpm', values['rpm']);
  if (rpmProblem) throw new UsageError(rpmProblem);
  const batchFlags = values as { batch?: boolean; 'batch-retry'?: string; 'batch-poll'?: number };
  const retry = batchRetryOf(batchFlags);
  const pollMs = batchPollMsOf(batchFlags);
  if (batchFlags['batch-poll'] !== undefined && !batchFlags.batch) throw new UsageError('--batch-poll needs --batch');
  return {
    out,
    concurrency,
    limits: values['rpm'] !== undefined ? { rpm: values['rpm'] as number } : {},
    batch: batchFlags.batch === true ? { retry, pollMs } : undefined,
    dryRun: values['dry-run'] === true,
  };
}

/** `parley multiverse`. */
export const run = commandRun(spec, async (args) => {
  const flags = flagsOf(args.flags as Record<string, unknown>);
  const loaded = loadClaim(args.positionals[0]!);
  if (!loaded.ok) throw new UsageError(loaded.message);
  const claim = loaded.claim;
  const refused = instructionsConsent(claim, consentFromFlags(args.flags as Record<string, unknown>).paths);
  if (refused) throw new UsageError(refused);
  const specs = planSpecifications(claim);
  const arms = planArms(specs, flags.out, flags.concurrency, flags.limits);
  const dirOf = (id: string) => arms.find((a) => a.arm.id === id)!.config.out;
  const withLimits = (p: PolicyConfig) => applyRateLimits({ judge: p }, flags.limits, true).judge as PolicyConfig;
  // A pairwise metric (naturalness) is one comparison of the two sides per specification, not each arm judged alone.
  const pairwise = PAIRWISE_METRICS.includes(claim.claim.metric) ? naturalnessTasks(specs, flags.out, withLimits) : null;
  const tasks = pairwise ? [] : judgeTasks(specs, dirOf, withLimits);
  if (flags.dryRun) return dryRun(specs, arms, tasks, flags, pairwise?.tasks ?? []);
  if (pairwise && flags.batch) throw new UsageError('--batch judges arms one by one; the naturalness metric compares the two sides live (drop --batch)');
  for (const a of arms) {
    const keys = keyPreflight(a.config) ?? tasks.filter((t) => t.armId === a.arm.id).map((t) => keyPreflight({ ...a.config, modes: [], judge: t.judge })).find((k) => k !== null);
    if (keys) throw new UsageError(keys);
  }
  const comparerKeys = pairwise?.tasks.map((t) => keyPreflight({ ...arms[0]!.config, modes: [], judge: t.judge })).find((k) => k !== null);
  if (comparerKeys) throw new UsageError(comparerKeys);
  const log = (l: string) => console.log(l);
  const interrupt = interruptSignal(log);
  const unwatch = exitWithLauncher();
  try {
    const ran = await runArms(arms, interrupt.signal);
    if (!interrupt.signal.aborted) log(`multiverse: ${ran.started} episode(s) started, ${ran.recorded} already recorded, over ${arms.length} distinct arm(s) of ${specs.length} specification(s)`);
    const judged = interrupt.signal.aborted ? null : await judgeAll(tasks, flags, interrupt.signal);
    if (interrupt.signal.aborted) {
      log(`interrupted after ${ran.started} episode(s)${judged ? ` and ${judged.judged} judgement(s)` : ''}; rerun with the same --out to resume`);
      return 130;
    }
    if (judged && tasks.length) log(`multiverse: ${judged.judged} episode(s) judged, ${judged.skipped} already judged, over ${tasks.length} (arm, judge) pair(s)`);
    if (judged && judged.failedJudges > 0) console.error(`parley multiverse: ${judged.failedJudges} (arm, judge) pair(s) got no usable score; their specifications have no effect`);
    if (pairwise && !interrupt.signal.aborted) {
      const compared = await compareSides(pairwise.tasks, dirOf, { concurrency: flags.concurrency ?? 4, signal: interrupt.signal });
      if (interrupt.signal.aborted) {
        log('interrupted while comparing; rerun with the same --out to resume (verdicts already saved are not asked again)');
        return 130;
      }
      log(`multiverse: naturalness: ${compared.asked} pair(s) judged, ${compared.kept} already judged, over ${pairwise.tasks.length} comparison(s)`);
    }
  } finally {
    unwatch();
    interrupt.dispose();
  }
  await writeAnswer(claim, specs, arms, tasks, flags.out, log, pairwise?.bySpec);
  return 0;
});

/** A directory of the user's own named by `instructions` is read only when `--allow-path` names it too. */
function instructionsConsent(claim: Claim, allowed: readonly string[]): string | null {
  const axis = (claim.axes as Record<string, unknown[]>)['instructions'] ?? [];
  const values = [...axis, ...[claim.base, claim.claim.a, claim.claim.b].map((s) => s['instructions'])].filter((v): v is string => typeof v === 'string');
  const dir = values.find((v) => isUserInstructions(v) && !allowed.includes(v));
  return dir === undefined ? null : `the claim names the prompt directory ${JSON.stringify(dir.slice(0, 200))} (instructions): give --allow-path ${dir.slice(0, 200)} to read templates from it`;
}

/** `--dry-run`: the plan and its estimate; nothing is sent or written. */
async function dryRun(specs: readonly Specification[], arms: readonly PlannedArm[], tasks: readonly JudgeTask[], flags: Flags, comparisons: readonly NaturalnessTask[]): Promise<number> {
  const plan = await planSweep(arms.map((a) => ({ id: a.arm.id, config: a.config })), tasks, flags.batch !== undefined, comparisons);
  const unpriced = plan.unpriced.size ? ` plus unpriced ${[...plan.unpriced].map(terminalSafe).join(', ')}` : '';
  console.log(`${specs.length} specification(s), ${arms.length} distinct arm(s), ${plan.episodes} episode(s) planned (already recorded ones are skipped when run; a selection rule may draw more); nothing sent`);
  console.log(`LLM calls: ${plan.generationCalls + plan.judgeCalls} (${plan.generationCalls} generation, ${plan.judgeCalls} judge over ${comparisons.length ? `${comparisons.length} naturalness comparison(s) of the two sides` : `${tasks.length} (arm, judge) pair(s)`}); estimated cost $${plan.usd.toFixed(2)}${unpriced}${flags.batch ? ' (judging at the batch price)' : ''}`);
  console.log("(estimate as run --dry-run and eval --dry-run: agents' episodes at their turn cap, ~4 characters per token, first attempts only; prices from llm/providers/<provider>.prices.json or $PARLEY_PRICES)");
  return 0;
}

/** Runs every arm (a few at once), each resuming what it recorded before. */
async function runArms(arms: readonly PlannedArm[], signal: AbortSignal): Promise<{ started: number; recorded: number }> {
  let started = 0;
  let recorded = 0;
  let done = 0;
  const progress = progressPrinter();
  // Arms are independent run directories: a few run at once (each one's episodes wait mostly on its
  // agent processes), so a sweep of many small arms is not one arm's start-up time after another.
  // One set of agent processes for the whole sweep, not a pool started and stopped per arm.
  // Loaded here, as the driver is (cli/run-experiment.ts): a claim refused before its first episode loads no pool.
  const { PoolLender } = await import('../../orchestrator/run/pool-lender.js');
  const pools = new PoolLender();
  const runArm = async (a: PlannedArm) => {
    // Quiet per-episode lines: the arm's progress is folded into the multiverse's progress line.
    const result = await runExperiment(a.config, { log: () => {}, hosting: 'local', signal, pools });
    started += result.ran.length;
    recorded += result.skipped;
    done++;
    progress.update(`arms ${done}/${arms.length} done · ${started} episode(s) started · ${recorded} already recorded · last ${path.resolve(a.config.out)}`);
  };
  try {
    // A failed arm stops the sweep: no arm starts after it, and the pools close once the arms in flight end.
    await eachAtOnce(arms, ARMS_AT_ONCE, runArm, signal);
  } finally {
    await pools.close();
  }
  progress.end();
  return { started, recorded };
}

/** Judges every (arm, judge) pair the specifications need, with a progress line. */
async function judgeAll(tasks: readonly JudgeTask[], flags: Flags, signal: AbortSignal) {
  const progress = progressPrinter();
  const startedAt = Date.now();
  const result = await judgeArms(tasks, {
    concurrency: flags.concurrency ?? 4,
    ...(flags.batch ? { batch: flags.batch } : {}),
    signal,
    log: (line) => console.error(line),
    progress: (task, i, p) => progress.update(`judge ${terminalSafe(task.judge.spec)} (pair ${i + 1}/${tasks.length}): ${evalProgressLine(p, Date.now() - startedAt, null)}`),
  });
  progress.end();
  return result;
}

/** Reads every arm's metrics, computes each specification's effect, and writes multiverse.json and the report. */
async function writeAnswer(claim: Claim, specs: readonly Specification[], arms: readonly PlannedArm[], tasks: readonly JudgeTask[], out: string, log: (l: string) => void, compared?: ReadonlyMap<number, NaturalnessTask>): Promise<void> {
  const runs = new Map<string, Awaited<ReturnType<typeof loadRunDir>>>();
  for (const a of arms) runs.set(a.arm.id, await loadRunDir(a.config.out));
  const sideMetrics = (s: Specification, side: 'a' | 'b'): EpisodeMetrics[] => {
    const run = runs.get(s[side].id)!;
    if (!run.ok) throw new Error(run.error.message);
    const judging = s.judging[side];
    if (judging.judge === undefined) return armMetrics(run.run);
    const task = tasks.find((t) => t.armId === s[side].id && t.key === judgingKey(judging))!;
    return armMetrics(run.run, { spec: task.judge.spec, rubric: task.rubric });
  };
  const effectOf = (s: Specification) => (compared ? naturalnessEffect(compared.get(s.index)!) : pairedEffect(sideMetrics(s, 'a'), sideMetrics(s, 'b'), claim.claim.metric));
  const rows: CurveRow[] = specs.map((s) => ({ index: s.index, choices: s.choices, effect: effectOf(s) }));
  const summary = summarizeCurve(rows.map((r) => r.effect), claim.claim.expect === 'a > b' ? 1 : -1);
  const swings = axisSwings(rows);
  await mkdir(out, { recursive: true });
  const json = {
    name: claim.name,
    claim: claim.claim,
    base: claim.base,
    axes: claim.axes,
    sample: claim.sample,
    summary,
    swing: swings,
    specifications: specs.map((s, i) => ({ index: s.index, choices: s.choices, a: `arms/${s.a.id}`, b: `arms/${s.b.id}`, ...rows[i]!.effect })),
  };
  await writeFileAtomic(path.join(out, 'multiverse.json'), `${JSON.stringify(json, null, 2)}\n`);
  await writeCurveReport(out, claim.name, claimText(claim), rows, summary, claim.claim.metric, swings);
  const pct = (x: number) => `${Math.round(x * 100)}%`;
  log(terminalSafe(`the claim holds in sign in ${pct(summary.holdShare)} of ${summary.specifications} specifications (interval excludes 0: ${pct(summary.significantShare)}); median effect ${summary.median === null ? '–' : summary.median.toFixed(3)}`));
  log(`verdict: ${summary.verdict} (${summary.thresholds})`);
  for (const a of swings) log(terminalSafe(`  swing of ${a.axis}: ${a.swing === null ? '–' : a.swing.toFixed(3)} (${a.values.map((v) => `${typeof v.value === 'string' ? v.value : JSON.stringify(v.value)} ${v.median === null ? '–' : v.median.toFixed(3)}`).join(', ')})`));
  log(`  ${path.join(out, 'multiverse.json')}\n  ${path.join(out, 'report.md')}\n  ${path.join(out, 'report.html')}`);
}
