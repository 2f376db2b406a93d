import path from 'node:path';
import { mkdir } from 'node:fs/promises';
import { writeFileAtomic } from '../../disk/atomic-write.js';
import { loadRunDir } from '../../evaluator/run-dir.js';
import { runMetrics } from '../../evaluator/metrics/run-metrics.js';
import { runExperiment } from '../../orchestrator/run/driver.js';
import type { RunConfig } from '../../orchestrator/run-config.js';
import { terminalSafe } from '../../text/terminal.js';
import { parseCommand, UsageError, type CommandSpec } from '../command.js';
import { toRunConfigInput } from '../experiment.js';
import { buildRunConfig } from '../plan/run-config.js';
import { planArm } from '../plan/dry-run.js';
import { loadClaim, type Claim } from '../multiverse/claim.js';
import { distinctArms, planSpecifications, type Arm, type Specification } from '../multiverse/plan.js';
import { pairedEffect, summarizeCurve } from '../multiverse/effect.js';
import { writeCurveReport, type CurveRow } from '../multiverse/curve-report.js';
import { exitWithLauncher, interruptSignal, keyPreflight } from './run.js';

export const spec: CommandSpec = {
  name: 'multiverse',
  usage: 'parley multiverse CLAIM.yaml --out DIR [options]',
  summary:
    'Does a claim survive its reasonable alternatives? Plans every specification of the claim file (the\n' +
    'cartesian product of its axes), runs each distinct arm once under DIR/arms/<identity> (a rerun resumes\n' +
    'and starts no recorded episode), and writes DIR/multiverse.json and DIR/report.md|html with the\n' +
    'specification curve, the share of specifications holding in sign, the median effect and a verdict.\n' +
    'First slice (issue 43): metrics success, words_per_turn, moves, repetition, goal (goal needs a judged\n' +
    'run: parley eval each arm); no judge-axis re-evaluation, calls or cost in the dry run yet.',
  flags: {
    out: { type: 'string', metavar: 'DIR', describe: 'the multiverse directory (rerunning with the same DIR resumes)' },
    concurrency: { type: 'number', describe: 'episodes in flight at once within an arm (default 4)' },
    'dry-run': { type: 'boolean', describe: 'print the number of specifications, distinct arms and episodes; run nothing, write nothing' },
  },
  positionals: { min: 1, max: 1, names: 'CLAIM.yaml' },
};

/** Arms run at once. */
const ARMS_AT_ONCE = 4;

interface PlannedArm {
  arm: Arm;
  config: RunConfig;
  protocol: string | undefined;
}

const claimText = (c: Claim) => `${c.claim.metric}: a ${JSON.stringify(c.claim.a)} ${c.claim.expect.slice(2, 3)} b ${JSON.stringify(c.claim.b)}`;
const choicesText = (s: Specification) => Object.entries(s.choices).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(', ');

/** Each distinct arm's run configuration, checked by the run's own config builder before anything is written. */
function planArms(specs: readonly Specification[], out: string, concurrency: number | undefined): PlannedArm[] {
  const planned: PlannedArm[] = [];
  for (const arm of distinctArms(specs)) {
    const input = { ...toRunConfigInput(arm.experiment), out: path.join(out, 'arms', arm.id), ...(concurrency !== undefined ? { concurrency } : {}) };
    const built = buildRunConfig({}, input);
    if (!built.ok) {
      const used = specs.find((s) => s.a.id === arm.id || s.b.id === arm.id)!;
      throw new UsageError(`specification ${used.index} (${choicesText(used)}): ${built.message}`);
    }
    const protocol = (arm.experiment as { protocol?: unknown }).protocol;
    planned.push({ arm, config: built.config, protocol: typeof protocol === 'string' ? protocol : undefined });
  }
  return planned;
}

/** `parley multiverse`. */
export async function run(argv: string[]): Promise<number> {
  const args = parseCommand(spec, argv);
  if (!args) return 0;
  const file = args.positionals[0]!;
  const out = args.flags.out;
  if (typeof out !== 'string') throw new UsageError('--out DIR is required (the multiverse directory)');
  const concurrency = args.flags.concurrency as number | undefined;
  if (concurrency !== undefined && (!Number.isInteger(concurrency) || concurrency <= 0)) throw new UsageError('--concurrency must be a positive integer');
  const loaded = loadClaim(file);
  if (!loaded.ok) throw new UsageError(loaded.message);
  const claim = loaded.claim;
  const specs = planSpecifications(claim);
  const arms = planArms(specs, out, concurrency);
  if (args.flags['dry-run'] === true) {
    let episodes = 0;
    for (const a of arms) episodes += (await planArm(a.arm.id, a.config, a.protocol)).episodes;
    console.log(`${specs.length} specification(s), ${arms.length} distinct arm(s), ${episodes} episode(s) planned (already recorded ones are skipped when run; a selection rule may draw more); nothing sent`);
    return 0;
  }
  for (const a of arms) {
    const keys = keyPreflight(a.config);
    if (keys) throw new UsageError(keys);
  }
  const log = (l: string) => console.log(l);
  const interrupt = interruptSignal(log);
  const unwatch = exitWithLauncher();
  let started = 0;
  let recorded = 0;
  try {
    // Arms are independent run directories: a few run at once (each one's episodes wait mostly on its
    // agent processes), so a sweep of many small arms is not one arm's start-up time after another.
    let next = 0;
    const worker = async () => {
      while (next < arms.length && !interrupt.signal.aborted) {
        const i = next++;
        const a = arms[i]!;
        log(`multiverse arm ${i + 1}/${arms.length} → ${path.resolve(a.config.out)}`);
        // Quiet per-episode lines: the arm's progress is folded into the multiverse's summary line.
        const result = await runExperiment(a.config, { log: () => {}, hosting: 'local', signal: interrupt.signal });
        started += result.ran.length;
        recorded += result.skipped;
      }
    };
    await Promise.all(Array.from({ length: Math.min(ARMS_AT_ONCE, arms.length) }, worker));
    if (interrupt.signal.aborted) {
      log(`interrupted after ${started} episode(s); rerun with the same --out to resume`);
      return 130;
    }
  } finally {
    unwatch();
    interrupt.dispose();
  }
  log(`multiverse: ${started} episode(s) started, ${recorded} already recorded, over ${arms.length} distinct arm(s) of ${specs.length} specification(s)`);
  const metrics = new Map<string, ReturnType<typeof runMetrics>>();
  for (const a of arms) {
    const run = await loadRunDir(a.config.out);
    if (!run.ok) throw new Error(run.error.message);
    metrics.set(a.arm.id, runMetrics(run.run));
  }
  const rows: CurveRow[] = specs.map((s) => ({ index: s.index, choices: s.choices, effect: pairedEffect(metrics.get(s.a.id)!, metrics.get(s.b.id)!, claim.claim.metric) }));
  const summary = summarizeCurve(rows.map((r) => r.effect), claim.claim.expect === 'a > b' ? 1 : -1);
  await mkdir(out, { recursive: true });
  const json = {
    name: claim.name,
    claim: claim.claim,
    base: claim.base,
    axes: claim.axes,
    sample: claim.sample,
    summary,
    specifications: specs.map((s, i) => ({ index: s.index, choices: s.choices, a: `arms/${s.a.id}`, b: `arms/${s.b.id}`, ...rows[i]!.effect })),
  };
  await writeFileAtomic(path.join(out, 'multiverse.json'), `${JSON.stringify(json, null, 2)}\n`);
  await writeCurveReport(out, claim.name, claimText(claim), rows, summary, claim.claim.metric);
  const pct = (x: number) => `${Math.round(x * 100)}%`;
  log(terminalSafe(`the claim holds in sign in ${pct(summary.holdShare)} of ${summary.specifications} specifications (interval excludes 0: ${pct(summary.significantShare)}); median effect ${summary.median === null ? '–' : summary.median.toFixed(3)}`));
  log(`verdict: ${summary.verdict} (${summary.thresholds})`);
  log(`  ${path.join(out, 'multiverse.json')}\n  ${path.join(out, 'report.md')}\n  ${path.join(out, 'report.html')}`);
  return 0;
}
