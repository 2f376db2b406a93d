import { llmProviderOf, Mode, MODES } from '../../protocol/index.js';
import { SETTING_FLAG_OF, settingsFromFlags } from './setting-flags.js';
import { RunConfig, type RunConfigInput } from '../../orchestrator/run-config.js';
import { checkPolicySpec, llmSpecProblem } from '../../llm/spec.js';
import type { FlagValue } from '../args.js';
import { loadExperiment } from '../experiment.js';
import { outDirProblem } from '../out-guard.js';
import { applyReplay } from '../replay-config.js';
import { consentFromFlags, type RunDirConsent } from '../run-dir-consent.js';
import { applyRateLimits, badLimit, type RateLimits } from '../rate-limits.js';
import { placeholderSpecProblem } from '../placeholder-spec.js';
import { MULTIPLEX_SEATS_PER_PROCESS } from '../multiplex-seats.js';
import { seatDefaults, type SeatDefaults } from './seat-line.js';

/*
 * A RunConfig from flags and an experiment file. Its own module (not `commands/run.ts`) so that
 * `plan/arms.ts` can build each arm's config without importing the command that imports it back.
 */

export type Built = { ok: true; config: RunConfig; seats: SeatDefaults } | { ok: false; message: string };

/** Flag names by RunConfig field, to name the flag in validation errors. */
const FLAG_OF: Record<string, string> = {
  scenarios: '--scenarios', subset: '--subset', modes: '--modes', out: '--out', maxTurns: '--max-turns',
  turnDeadlineMs: '--turn-deadline-ms', repeats: '--repeats', concurrency: '--concurrency', limit: '--limit',
  agents: '--agent1/--agent2', scriptWriter: '--script-writer', judge: '--judge', replay: '--replay', seed: '--seed',
  ...SETTING_FLAG_OF,
};

/** Operational switches: [flag, RunConfig key]. */
const SWITCHES = [['retry-failed', 'retryFailed'], ['repair-scenarios', 'repairScenarios'], ['redraw', 'redraw']] as const;

/**
 * RunConfig from an experiment file (if `--experiment`) overlaid with flags, plus per-command defaults
 * underneath both. Every error names the flag or the file line.
 */
export function buildRunConfig(flags: Record<string, FlagValue>, defaults: Partial<RunConfigInput> = {}): Built {
  let base: Partial<RunConfigInput> = { ...defaults };
  let fileLimits: RateLimits = {};
  if (typeof flags.experiment === 'string') {
    const exp = loadExperiment(flags.experiment);
    if (!exp.ok) return exp;
    base = { ...base, ...exp.config };
    fileLimits = exp.limits ?? {};
  }
  const input: Partial<RunConfigInput> = { ...base };
  const set = <K extends keyof RunConfigInput>(k: K, v: FlagValue | undefined) => {
    if (v !== undefined) (input as Record<string, unknown>)[k] = v;
  };
  set('scenarios', flags.scenarios);
  set('subset', flags.subset);
  set('out', flags.out);
  set('maxTurns', flags['max-turns']);
  set('turnDeadlineMs', flags['turn-deadline-ms']);
  set('repeats', flags.repeats);
  set('concurrency', flags.concurrency);
  set('limit', flags.limit);
  set('seed', flags.seed);
  set('replay', flags.replay);
  for (const [flag, key] of SWITCHES) if (flags[flag] === true) input[key] = true;
  const settings = settingsFromFlags(flags);
  if (!settings.ok) return settings;
  Object.assign(input, settings.values);
  if (flags.modes !== undefined) {
    const modes = flags.modes as string[];
    const bad = modes.find((m) => !Mode.safeParse(m).success);
    if (bad) return { ok: false, message: `--modes: unknown mode '${bad}' (choose from ${MODES.join(', ')})` };
    input.modes = modes as Mode[];
  }
  const seatProblem = applySeatFlags(flags, input);
  if (seatProblem) return { ok: false, message: seatProblem };
  if (typeof flags['script-writer'] === 'string') input.scriptWriter = { spec: flags['script-writer'] };
  if (typeof flags.judge === 'string') input.judge = { spec: flags.judge };
  if (flags['reformat-model'] !== undefined) {
    // Every LLM generator's reformat model (the judge's is `parley eval --reformat-model`).
    const spec = String(flags['reformat-model']);
    const problem = llmSpecProblem(spec);
    if (problem) return { ok: false, message: `--reformat-model: ${problem}` };
    const withReformat = <P extends { spec: string }>(p: P): P => (llmProviderOf(p.spec) ? { ...p, reformat: { spec } } : p);
    if (input.agents) input.agents = input.agents.map(withReformat);
    if (input.scriptWriter) input.scriptWriter = withReformat(input.scriptWriter);
  }
  if (flags.multiplex === true) input.pool = { ...input.pool, multiplex: true, seatsPerProcess: input.pool?.seatsPerProcess ?? MULTIPLEX_SEATS_PER_PROCESS };
  if (flags['seats-per-process'] !== undefined) {
    const n = flags['seats-per-process'] as number;
    if (!Number.isInteger(n) || n < 1) return { ok: false, message: `--seats-per-process: expected a positive integer (got ${n})` };
    if (!input.pool?.multiplex) return { ok: false, message: '--seats-per-process needs --multiplex' };
    input.pool = { ...input.pool, seatsPerProcess: n };
  }
  if (input.out === undefined) return { ok: false, message: '--out DIR is required (the run directory)' };
  const outProblem = outDirProblem(input.out);
  if (outProblem) return { ok: false, message: outProblem };
  const badRate = badLimit('--rpm', flags.rpm) ?? badLimit('--tpm', flags.tpm);
  if (badRate) return { ok: false, message: badRate };
  const limited = applyRateLimits(applyRateLimits(input, fileLimits, false), { rpm: flags.rpm as number | undefined, tpm: flags.tpm as number | undefined }, true);
  const replay = replayWithConsent(limited, defaults, flags);
  if (!replay.ok) return replay;
  const parsed = RunConfig.safeParse(replay.input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const key = String(issue.path[0] ?? '');
    return { ok: false, message: `${FLAG_OF[key] ?? (key || 'config')}: ${issue.message}` };
  }
  return { ok: true, config: parsed.data, seats: seatDefaults(replay.input) };
}

/**
 * `--agentN`, `--script-writer` and `--judge` checked (a spec the parser or the provider registry refuses,
 * an example's placeholder model id) and the seat policies put into `input`; returns the refusal, if any.
 */
function applySeatFlags(flags: Record<string, FlagValue>, input: Partial<RunConfigInput>): string | null {
  const seatFlags = Object.keys(flags).filter((f) => /^agent[0-9]+$/.test(f)).sort((a, b) => Number(a.slice(5)) - Number(b.slice(5)));
  for (const [flag, value] of [...seatFlags.map((f) => [f, flags[f]] as const), ['script-writer', flags['script-writer']], ['judge', flags.judge]] as const) {
    const parsed = typeof value === 'string' ? checkPolicySpec(value) : undefined;
    if (parsed && !parsed.ok) return `--${flag}: ${parsed.message}`;
    const placeholder = typeof value === 'string' ? placeholderSpecProblem(value) : null;
    if (placeholder) return `--${flag}: ${placeholder}`;
  }
  if (seatFlags.some((f) => typeof flags[f] === 'string')) {
    const agents = [...(input.agents ?? [{ spec: 'bot' }])];
    for (const f of seatFlags) if (typeof flags[f] === 'string') agents[Number(f.slice(5)) - 1] = { spec: flags[f] as string };
    // A gap (--agent3 without --agent2) plays as the seat before it, as seats past the list do (run/plan.ts).
    for (let i = 0; i < agents.length; i++) agents[i] ??= agents[i - 1] ?? { spec: 'bot' };
    input.agents = agents;
  }
  return null;
}

/**
 * `applyReplay` over the settings the user gave (those not at their default), with the consent flags (a
 * recorded run is untrusted: cli/run-dir-consent.ts).
 */
function replayWithConsent(input: Partial<RunConfigInput>, defaults: Partial<RunConfigInput>, flags: Record<string, FlagValue>): ReturnType<typeof applyReplay> {
  const given = new Set(Object.keys(input).filter((k) => !(k in defaults) || (input as Record<string, unknown>)[k] !== (defaults as Record<string, unknown>)[k]));
  let consent: RunDirConsent;
  try {
    consent = consentFromFlags(flags);
  } catch (err) {
    return { ok: false, message: (err as Error).message };
  }
  return applyReplay(input, given, consent);
}
