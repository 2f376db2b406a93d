import { resolve, relative, sep } from 'node:path';
import { parseSpec } from '../../llm/index.js';
import type { PolicyConfig } from '../../protocol/index.js';
import { askProbe, BUILTIN_PROBES, type ProbeDefinition } from '../../probes/definitions.js';
import { answererFor, unanswerable, type Answerer } from '../../probes/ask.js';
import { readProbeDefinition } from '../../probes/definition-file.js';
import { probeJudge } from '../../probes/judge.js';
import { planTargets } from '../../probes/plan.js';
import { readProbeRun } from '../../probes/probe-run.js';
import { runProbes } from '../../probes/run-probes.js';
import { RUN_DIR_NAMES } from '../../run-dir/index.js';
import { terminalSafe } from '../../text/terminal.js';
import type { FlagSpecs } from '../args.js';
import { parseCommand, UsageError, type CommandSpec } from '../command.js';
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
  'dry-run': { type: 'boolean', describe: 'print how many questions would be sent, to whom, and send nothing' },
  ...CONSENT_FLAGS,
};

export const spec: CommandSpec = {
  name: 'probe',
  usage: 'parley probe RUN --probe NAME|FILE|--ask QUESTION --seat SEAT --at T[,T…]|all --out FILE [options]',
  summary: [
    'Ask a seat what it believes, off the record: for each chosen episode and turn, the seat\'s exact prompt at',
    'that turn is rebuilt from its ledger (no call for it), the probe is added as one message outside the',
    'conversation, and the seat\'s own policy (or --model) answers. Bots answer from their belief state. The',
    'answer, its provenance and its score against the scenario\'s ground truth go to the probe file; the run',
    'directory is only read. `parley report RUN --probes FILE` draws accuracy against turn per mode.',
  ].join('\n'),
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

export async function run(argv: string[]): Promise<number> {
  const args = parseCommand(spec, argv);
  if (!args) return 0;
  const f = args.flags;
  const probe = chooseProbe(f);
  const seat = f.seat as string | undefined;
  if (!seat) throw new UsageError('--seat SEAT is required (agent1, agent2, …)');
  if (f.at === undefined) throw new UsageError('--at T[,T…]|all is required');
  const at = parseAt(f.at as string);
  const out = f.out as string | undefined;
  if (!out && f['dry-run'] !== true) throw new UsageError('--out FILE is required');
  const concurrency = (f.concurrency as number | undefined) ?? 4;
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 256) throw new UsageError('--concurrency must be an integer from 1 to 256');
  const override = f.model !== undefined ? modelPolicy('model', f.model as string) : null;
  const judge = f.judge !== undefined ? probeJudge(modelPolicy('judge', f.judge as string).spec) : null;
  if (judge && probe.scorer !== 'judge') throw new UsageError(`--judge: probe ${probe.name} is not scored by a judge`);

  const runDir = args.positionals[0]!;
  const read = readProbeRun(runDir);
  if (!read.ok) throw new UsageError(read.message);
  const probeRun = read.run;
  if (out) checkOut(out, probeRun.dir);
  const episodes = ((f.episodes as string | undefined) ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  const plan = planTargets(probeRun, { probe, seat, at, episodes });
  if (!plan.ok) throw new UsageError(plan.message);
  const policies = [...new Set(plan.targets.map((t) => t.policy))];
  if (!override) {
    for (const p of policies) {
      const why = unanswerable(p);
      if (why) throw new UsageError(`seat ${seat} ${why}`);
    }
    // run.json is untrusted: an endpoint, key variable or prompt directory it names is used only with consent.
    const refused = consentProblem(`${runDir}/run.json`, policies.map((policy) => ({ where: seat, policy })), consentFromFlags(f));
    if (refused) throw new UsageError(refused);
  }
  const answerers = new Map<PolicyConfig, Answerer>();
  const answererOf = (t: { policy: PolicyConfig }) => {
    const key = override ?? t.policy;
    let a = answerers.get(key);
    if (!a) answerers.set(key, (a = answererFor(key)));
    return a;
  };
  const who = [...new Set(plan.targets.map((t) => answererOf(t).label))].join(', ');
  const { skipped } = plan;
  const skips = [skipped.noTruth && `${skipped.noTruth} episode(s) without ground truth`, skipped.shorter && `${skipped.shorter} turn(s) past an episode's end`, skipped.notAsked && `${skipped.notAsked} turn(s) the seat did not play`].filter(Boolean);
  console.log(`parley probe ${terminalSafe(probe.name)}: ${plan.targets.length} question(s) to ${terminalSafe(who)} (seat ${terminalSafe(seat)}, ${new Set(plan.targets.map((t) => t.record.episodeId)).size} episode(s))${skips.length ? `; skipped ${skips.join(', ')}` : ''}`);
  if (f['dry-run'] === true) {
    console.log(`dry run: nothing sent, nothing written${probe.scorer === 'judge' && judge ? `; plus up to ${plan.targets.length} judge request(s) to ${judge.label}` : ''}`);
    return 0;
  }
  const progress = process.stderr.isTTY ? (done: number, total: number) => process.stderr.write(`\rprobed ${done}/${total}`) : undefined;
  const result = await runProbes({ run: probeRun, probe, targets: plan.targets, answererOf, judge, out: out!, concurrency, ...(progress ? { progress } : {}) });
  if (progress) process.stderr.write('\n');
  if (!result.ok) {
    console.error(`parley probe: ${result.message}`);
    return 1;
  }
  const s = result.summary;
  console.log(`wrote ${s.asked} answer(s) to ${out}${s.resumed ? ` (${s.resumed} already there, not asked again)` : ''}${s.failed ? `; ${s.failed} failed, recorded with their error` : ''}`);
  return s.failed ? 1 : 0;
}
