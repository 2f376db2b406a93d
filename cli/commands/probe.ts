import { resolve, relative, sep } from 'node:path';
import { parseSpec } from '../../llm/index.js';
import type { PolicyConfig } from '../../protocol/index.js';
import { askProbe, BUILTIN_PROBES, type ProbeDefinition } from '../../probes/definitions.js';
import { answererFor, unanswerable, type Answerer } from '../../probes/ask.js';
import { readProbeDefinition } from '../../probes/definition-file.js';
import { probeJudge, type ProbeJudge } from '../../probes/judge.js';
import { planTargets, type ProbeTarget } from '../../probes/plan.js';
import { readProbeRun, type ProbeRun } from '../../probes/probe-run.js';
import { runProbes, unansweredTargets } from '../../probes/run-probes.js';
import { ProbeBatchRefused, probeInBatches, type ProbeBatchResult } from '../../probes/batch.js';
import { BATCH_RETRY_FLAGS, batchPollMsOf } from '../batch-flags.js';
import { interruptStages, STOP_BOUND_MS } from '../interrupt-stages.js';
import { probePlanLines } from '../plan/probe-estimate.js';
import { badLimit } from '../rate-limits.js';
import { progressPrinter } from '../progress-line.js';
import { RUN_DIR_NAMES } from '../../run-dir/index.js';
import { terminalSafe } from '../../text/terminal.js';
import type { FlagSpecs } from '../args.js';
import { commandRun, UsageError, type CommandSpec } from '../command.js';
import { consentFromFlags, consentProblem, CONSENT_FLAGS } from '../run-dir-consent.js';

const FLAGS: FlagSpecs = {
  probe: { type: 'string', metavar: 'NAME|FILE', describe: `a built-in probe (${Object.keys(BUILTIN_PROBES).join(', ')}) or a probe file (YAML: name, question, format, scorer, truth)` },
  ask: { type: 'string', metavar: 'QUESTION', describe: 'a question of your own (recorded, not scored)' },
  seat: { type: 'string', metavar: 'SEAT', describe: 'the seat to ask (agent1, agent2, …)' },
  at: { type: 'string', metavar: 'T[,T…]|all', describe: 'turns (from 0) at which the seat is asked, each one it was asked to move at; all = every such turn' },
  episodes: { type: 'string', metavar: 'FILTER', describe: 'comma-separated episode ids, parts of ids, or modes (default: every agents and mindreaders episode)' },
  out: { type: 'string', metavar: 'FILE', describe: 'the probe file (JSONL, appended; rerunning the command resumes it)' },
  model: { type: 'string', metavar: 'PROVIDER:MODEL', describe: "ask this model instead of the seat's own policy (still from the seat's exact prompt)" },
  judge: { type: 'string', metavar: 'PROVIDER:MODEL', describe: 'scores answers of partner-goal and partner-secret, 0–10 (without it they are recorded, not scored)' },
  concurrency: { type: 'number', metavar: 'N', describe: 'questions in flight at once (default 4)' },
  'dry-run': { type: 'boolean', describe: 'print the questions, tokens and cost per answering model (and judge), and send nothing' },
  rpm: { type: 'number', metavar: 'N', describe: "requests per minute per provider endpoint for the answering model and the judge (wins over the seat's recorded rate)" },
  batch: { type: 'boolean', describe: "send the questions to LLM answerers through the provider's batch interface at half price; recorded beside --out, collected by the same command run again" },
  'batch-poll': BATCH_RETRY_FLAGS['batch-poll']!,
  ...CONSENT_FLAGS,
};

export const spec: CommandSpec = {
  name: 'probe',
  usage: 'parley probe RUN --probe NAME|FILE|--ask QUESTION --seat SEAT --at T[,T…]|all --out FILE [options]',
  summary: `Ask a seat what it believes, off the record: for each chosen episode and turn, the seat's exact prompt at
that turn is rebuilt from its ledger (no call for it), the probe is added as one message outside the
conversation, and the seat's own policy (or --model) answers. Bots answer from their belief state. The
answer, its provenance and its score against the scenario's ground truth go to the probe file; the run
directory is only read. \`parley report RUN --probes FILE\` draws accuracy against turn per mode.`,
  flags: FLAGS,
  positionals: { min: 1, max: 1, names: 'a run directory' },
};

/** `--at 2,4` → [2, 4]; `all`. */
function parseAt(text: string): number[] | 'all' {
  if (text.trim() === 'all') return 'all';
  const turns = text.split(',').map((s) => s.trim());
  if (!turns.every((t) => /^\d{1,6}$/.test(t))) throw new UsageError(`--at: expected turns from 0, e.g. 2,4, or all (got '${text.slice(0, 80)}')`);
  return [...new Set(turns.map(Number))].sort((a, b) => a - b);
}

/** The probe a command line names. */
function chooseProbe(flags: Record<string, unknown>): ProbeDefinition {
  const name = flags.probe as string | undefined;
  const ask = flags.ask as string | undefined;
  if ((name === undefined) === (ask === undefined)) throw new UsageError('give one of --probe NAME or --ask QUESTION');
  if (ask !== undefined) {
    if (!ask.trim() || ask.length > 2000) throw new UsageError('--ask: a question of 1 to 2000 characters');
    return askProbe(ask.trim());
  }
  const probe = BUILTIN_PROBES[name!];
  if (probe) return probe;
  if (!/\.ya?ml$/i.test(name!)) throw new UsageError(`--probe: unknown probe '${name!.slice(0, 80)}' (${Object.keys(BUILTIN_PROBES).join(', ')}, or a probe file FILE.yaml)`);
  const read = readProbeDefinition(name!);
  if (!read.ok) throw new UsageError(`--probe: ${read.message}`);
  if (BUILTIN_PROBES[read.probe.name] || read.probe.name === 'ask') throw new UsageError(`--probe ${name}: name '${read.probe.name}' is a built-in probe's; give yours another`);
  return read.probe;
}

/** A model flag's policy, checked now (one line, exit 2) so nothing is asked with a bad spec. */
function modelPolicy(flag: string, value: string): PolicyConfig {
  try {
    parseSpec(value);
  } catch (err) {
    throw new UsageError(`--${flag}: ${(err as Error).message}`);
  }
  return { spec: value, params: {} };
}

/** The probe file may not be a file of the run it reads: the run's files stay byte for byte as they are. */
function checkOut(out: string, runDir: string): void {
  const rel = relative(runDir, resolve(out));
  if (rel.startsWith('..') || resolve(out) === resolve(rel)) return;
  const first = rel.split(sep)[0]!;
  if ((Object.values(RUN_DIR_NAMES) as string[]).includes(first) || rel === '') throw new UsageError(`--out ${out} is one of the run's own files: a probe writes only its probe file`);
}

interface ProbeOptions {
  probe: ProbeDefinition;
  seat: string;
  at: number[] | 'all';
  out: string | undefined;
  concurrency: number;
  override: PolicyConfig | null;
  judge: ProbeJudge | null;
  rpm: number | undefined;
  batch: { pollMs: number } | null;
  dryRun: boolean;
  episodes: string[];
}

/** Every flag checked before anything is read or sent (one line, exit 2). */
function probeOptions(f: Record<string, unknown>): ProbeOptions {
  const probe = chooseProbe(f);
  const seat = f.seat as string | undefined;
  if (!seat) throw new UsageError('--seat SEAT is required (agent1, agent2, …)');
  if (f.at === undefined) throw new UsageError('--at T[,T…]|all is required');
  const at = parseAt(f.at as string);
  const out = f.out as string | undefined;
  const dryRun = f['dry-run'] === true;
  if (!out && !dryRun) throw new UsageError('--out FILE is required');
  const concurrency = (f.concurrency as number | undefined) ?? 4;
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 256) throw new UsageError('--concurrency must be an integer from 1 to 256');
  const rpmProblem = badLimit('--rpm', f.rpm);
  if (rpmProblem) throw new UsageError(rpmProblem);
  const rpm = f.rpm as number | undefined;
  if (f['batch-poll'] !== undefined && f.batch !== true) throw new UsageError('--batch-poll needs --batch');
  const batch = f.batch === true ? { pollMs: batchPollMsOf(f as { 'batch-poll'?: number }) } : null;
  const override = f.model !== undefined ? withRpm(modelPolicy('model', f.model as string), rpm) : null;
  const judge = f.judge !== undefined ? probeJudge(modelPolicy('judge', f.judge as string).spec, rpm !== undefined ? { rpm } : {}) : null;
  if (judge && probe.scorer !== 'judge') throw new UsageError(`--judge: probe ${probe.name} is not scored by a judge`);
  const episodes = ((f.episodes as string | undefined) ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  return { probe, seat, at, out, concurrency, override, judge, rpm, batch, dryRun, episodes };
}

/** `--rpm` on a policy's client (it wins over a rate the run recorded for the seat). */
function withRpm(policy: PolicyConfig, rpm: number | undefined): PolicyConfig {
  return rpm === undefined ? policy : { ...policy, params: { ...policy.params, rpm } };
}

/** One answerer per policy (so one client, and one rate limiter per endpoint, whatever the number of targets). */
function answerersFor(o: ProbeOptions): (t: { policy: PolicyConfig }) => Answerer {
  const answerers = new Map<PolicyConfig, Answerer>();
  return (t) => {
    const key = o.override ?? t.policy;
    let a = answerers.get(key);
    if (!a) answerers.set(key, (a = answererFor(o.override ?? withRpm(t.policy, o.rpm))));
    return a;
  };
}

export const run = commandRun(spec, async (args) => {
  const f = args.flags;
  const o = probeOptions(f);
  const runDir = args.positionals[0]!;
  const read = readProbeRun(runDir);
  if (!read.ok) throw new UsageError(read.message);
  const probeRun = read.run;
  if (o.out) checkOut(o.out, probeRun.dir);
  const plan = planTargets(probeRun, { probe: o.probe, seat: o.seat, at: o.at, episodes: o.episodes });
  if (!plan.ok) throw new UsageError(plan.message);
  if (!o.override) {
    const policies = [...new Set(plan.targets.map((t) => t.policy))];
    for (const p of policies) {
      const why = unanswerable(p);
      if (why) throw new UsageError(`seat ${o.seat} ${why}`);
    }
    // run.json is untrusted: an endpoint, key variable or prompt directory it names is used only with consent.
    const refused = consentProblem(`${runDir}/run.json`, policies.map((policy) => ({ where: o.seat, policy })), consentFromFlags(f));
    if (refused) throw new UsageError(refused);
  }
  const answererOf = answerersFor(o);
  const who = [...new Set(plan.targets.map((t) => answererOf(t).label))].join(', ');
  const { skipped } = plan;
  const skips = [skipped.noTruth && `${skipped.noTruth} episode(s) without ground truth`, skipped.shorter && `${skipped.shorter} turn(s) past an episode's end`, skipped.notAsked && `${skipped.notAsked} turn(s) the seat did not play`].filter(Boolean);
  console.log(`parley probe ${terminalSafe(o.probe.name)}: ${plan.targets.length} question(s) to ${terminalSafe(who)} (seat ${terminalSafe(o.seat)}, ${new Set(plan.targets.map((t) => t.record.episodeId)).size} episode(s))${skips.length ? `; skipped ${skips.join(', ')}` : ''}`);
  if (o.dryRun) {
    const todo = o.out ? unansweredTargets({ run: probeRun, probe: o.probe, targets: plan.targets, answererOf, out: o.out }) : { ok: true as const, todo: plan.targets };
    if (!todo.ok) throw new UsageError(todo.message);
    if (todo.todo.length < plan.targets.length) console.log(`${plan.targets.length - todo.todo.length} already answered in ${o.out}: not asked again`);
    for (const line of probePlanLines({ probe: o.probe, targets: todo.todo, answererOf, judge: o.judge, batch: o.batch !== null })) console.log(line);
    console.log('dry run: nothing sent, nothing written');
    return 0;
  }
  return askAll(o, probeRun, plan.targets, answererOf);
});

/** Puts the questions (through batches first with --batch), writing each answer as it comes; Ctrl-C stops cleanly. */
async function askAll(o: ProbeOptions, probeRun: ProbeRun, targets: ProbeTarget[], answererOf: (t: ProbeTarget) => Answerer): Promise<number> {
  const out = o.out!;
  const resume = 'run the same command again to resume (answers already written are not asked again)';
  const tty = process.stderr.isTTY;
  const stop = interruptStages({
    first: () => process.stderr.write(`${tty ? '\n' : ''}interrupted: no new questions; those in flight finish (at most ${STOP_BOUND_MS / 1000} s; Ctrl-C again to quit now)\n`),
    second: () => {
      process.stderr.write(`${tty ? '\n' : ''}interrupted; ${resume}\n`);
      process.exit(130);
    },
  });
  try {
    let ask = answererOf;
    let batched: ProbeBatchResult | null = null;
    if (o.batch) {
      const todo = unansweredTargets({ run: probeRun, probe: o.probe, targets, answererOf, out });
      if (!todo.ok) throw new UsageError(todo.message);
      try {
        batched = await probeInBatches({ runDir: probeRun.dir, probe: o.probe, targets: todo.todo, answererOf, out, pollMs: o.batch.pollMs, signal: stop.signal, log: (line) => console.error(line) });
      } catch (err) {
        if (err instanceof ProbeBatchRefused) throw new UsageError(err.message);
        throw err;
      }
      if (batched.pending.length) {
        console.error(`interrupted; ${resume}: pending batch(es) ${batched.pending.map((id) => terminalSafe(id)).join(', ')} are collected then, not submitted again`);
        return 130;
      }
      ask = batched.answererOf;
    }
    const printer = progressPrinter();
    const progress = (done: number, total: number) => printer.update(`probed ${done}/${total}`);
    const result = await runProbes({ run: probeRun, probe: o.probe, targets, answererOf: ask, judge: o.judge, out, concurrency: o.concurrency, progress, stop: stop.signal, abandon: stop.abandon });
    printer.end();
    if (!result.ok) {
      console.error(`parley probe: ${result.message}`);
      return 1;
    }
    if (batched && !stop.signal.aborted) batched.markCollected();
    const s = result.summary;
    console.log(`wrote ${s.asked} answer(s) to ${out}${s.resumed ? ` (${s.resumed} already there, not asked again)` : ''}${batched ? `; ${batched.fromBatch()} answered by the batch` : ''}${s.failed ? `; ${s.failed} failed, recorded with their error` : ''}`);
    if (stop.signal.aborted) {
      console.error(`interrupted; ${resume}`);
      return 130;
    }
    return s.failed ? 1 : 0;
  } finally {
    stop.dispose();
  }
}
