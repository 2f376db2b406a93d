import { readTextFile } from '../disk/read-text.js';
import { parseYamlWith } from '../text/yaml.js';
import * as z from 'zod';
import { CLIENT_SETTING_KEYS, splitParams } from '../llm/options.js';
import { unknownSamplingKey } from '../llm/sampling-keys.js';
import { checkPolicySpec, llmSpecProblem } from '../llm/spec.js';
import { providerNamed } from '../llm/providers/registry.js';
import { llmProviderOf, Mode, MODES, PolicyConfig } from '../protocol/index.js';
import { experimentSettingsShape, SETTING_KEYS } from '../simulation/index.js';
import type { RunConfigInput } from '../orchestrator/run-config.js';
import type { RateLimits } from './rate-limits.js';
import { nonLlmParamProblem } from './non-llm-params.js';
import { placeholderSpecProblem } from './placeholder-spec.js';

/** A policy spec string, checked by the one parser (protocol/policy-spec.ts) and the provider registry. */
const Spec = z.string().superRefine((s, ctx) => {
  const parsed = checkPolicySpec(s);
  if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.message });
  const placeholder = placeholderSpecProblem(s);
  if (placeholder) ctx.addIssue({ code: 'custom', message: placeholder });
});

/**
 * A policy in an experiment file: a spec string, or a full PolicyConfig. Per seat: `baseURL`,
 * `apiKeyEnv`, `params` (sampling + LLM client settings), `promptDir`; a misspelt key is an error, and
 * so is a sampling parameter the spec's provider does not accept (`temprature`).
 */
const PolicyInput = z.union([
  Spec,
  PolicyConfig.extend({ spec: Spec }).strict().superRefine((p, ctx) => {
    const reformatProblem = p.reformat ? llmSpecProblem(p.reformat.spec) : null;
    if (reformatProblem) ctx.addIssue({ code: 'custom', path: ['reformat', 'spec'], message: reformatProblem });
    const provider = llmProviderOf(p.spec);
    if (!provider) {
      // A bot or person given sampling params would carry them and ignore them: refused.
      for (const key of Object.keys(p.params ?? {})) {
        const inert = nonLlmParamProblem(p.spec, key);
        if (inert) ctx.addIssue({ code: 'custom', path: ['params', key], message: inert });
      }
      return;
    }
    // An unregistered provider was refused by `Spec` already.
    if (!providerNamed(provider)) return;
    // A client setting the provider cannot honour (`transport: completion` on mistral) fails here, before any episode.
    if (p.params?.transport !== undefined) {
      try {
        splitParams(provider, { transport: p.params.transport });
      } catch (err) {
        if (!(err instanceof TypeError)) throw err;
        ctx.addIssue({ code: 'custom', path: ['params', 'transport'], message: err.message });
        return;
      }
    }
    const sampling = Object.keys(p.params ?? {}).filter((k) => !CLIENT_SETTING_KEYS.includes(k));
    const bad = unknownSamplingKey(provider, sampling);
    if (bad) {
      ctx.addIssue({
        code: 'custom',
        path: ['params', bad.key],
        message: `'${bad.key}' is not a ${provider} parameter (allowed: ${bad.allowed.join(', ')}; client settings: ${CLIENT_SETTING_KEYS.join(', ')})`,
      });
    }
  }),
]);

const ModeName = z.enum(MODES, { error: (iss) => `'${String(iss.input)}' is not a mode (allowed: ${MODES.join(', ')})` });
const ModesInput = z.union([z.array(ModeName).min(1), z.string().transform((s, ctx) => {
  const modes = s.split(',').map((m) => m.trim()).filter(Boolean);
  for (const m of modes) if (!Mode.safeParse(m).success) ctx.addIssue({ code: 'custom', message: `'${m}' is not a mode (allowed: ${MODES.join(', ')})` });
  return modes as Mode[];
})]);

/** What an arm may set: who plays (per seat, script writer, judge) and the limits. */
const ArmFields = {
  modes: ModesInput,
  maxTurns: z.number().int().positive(),
  turnDeadlineMs: z.number().int().positive(),
  repeats: z.number().int().positive(),
  limit: z.number().int().positive(),
  agents: z.array(PolicyInput).min(1),
  agent1: PolicyInput,
  agent2: PolicyInput,
  scriptWriter: PolicyInput,
  judge: PolicyInput,
  /** The simulation settings an arm may set apart (simulation/settings.ts: the judge view). */
  ...experimentSettingsShape(true),
  /** The rubric `parley eval` scores this run on (a YAML file or sotopia/goal); checked when the run starts. */
  rubric: z.string().min(1),
};

/** One arm of an experiment: its own run directory (`<out>/<name>`) with these settings over the shared ones. */
export const Arm = z.object(ArmFields).partial().strict();
export type Arm = z.infer<typeof Arm>;

/** Arm names become directory names. */
const ArmName = /^[A-Za-z0-9][\w.-]*$/;

/**
 * An experiment file: the run's configuration in YAML, with the same names as RunConfig
 * (camelCase), plus `agent1`/`agent2` shorthands, `multiplex`, `protocol`, and `arms` (several runs of
 * one grid, e.g. one per model). Unknown keys are errors, so a typo never silently falls back to a default.
 */
export const Experiment = z
  .object({
    ...ArmFields,
    scenarios: z.string().min(1),
    subset: z.string().min(1),
    out: z.string().min(1),
    concurrency: z.number().int().positive(),
    replay: z.string().min(1),
    multiplex: z.boolean(),
    pool: z.object({ multiplex: z.boolean().optional(), seatsPerProcess: z.number().int().positive().optional() }).strict(),
    retryFailed: z.boolean(),
    seed: z.number().int(),
    arms: z.record(z.string().regex(ArmName, 'an arm name is a directory name: letters, digits, . _ -'), Arm).refine((a) => Object.keys(a).length > 0, 'at least one arm'),
    /** The run-wide simulation settings (simulation/settings.ts): the protocol, its switches, `mindread`. */
    ...experimentSettingsShape(false),
    /** Requests / tokens per minute for every LLM seat (a seat's own params win); shared by all workers under --queue. */
    rpm: z.number().int().nonnegative(),
    tpm: z.number().int().nonnegative(),
  })
  .partial()
  .strict();
export type Experiment = z.infer<typeof Experiment>;

/** One arm, resolved: its name and the run configuration it runs with (shared settings + its own). */
export interface ArmConfig {
  name: string;
  config: Partial<RunConfigInput>;
}

/** `arms` is present only when the file has arms; `config` is then the shared part. */
export type ExperimentResult = { ok: true; config: Partial<RunConfigInput>; arms?: ArmConfig[]; limits?: RateLimits } | { ok: false; message: string };

/** Reads and validates an experiment file; errors name the file, the line and the field. */
export function loadExperiment(file: string): ExperimentResult {
  const read = readTextFile(file);
  return read.ok ? parseExperiment(read.text, file) : read;
}

export function parseExperiment(text: string, file: string): ExperimentResult {
  const parsed = parseYamlWith(Experiment, text, file);
  if (!parsed.ok) return { ok: false, message: parsed.message };
  const config = toRunConfigInput(parsed.data);
  // Rate limits hold for every arm (a seat's own `params.rpm`/`tpm` win, so an arm's policies can set their own).
  const limits: RateLimits = {};
  if (parsed.data.rpm !== undefined) limits.rpm = parsed.data.rpm;
  if (parsed.data.tpm !== undefined) limits.tpm = parsed.data.tpm;
  const withLimits = Object.keys(limits).length ? { limits } : {};
  if (!parsed.data.arms) return { ok: true, config, ...withLimits };
  const arms = Object.entries(parsed.data.arms).map(([name, arm]) => ({ name, config: armConfig(config, name, arm) }));
  return { ok: true, config, arms, ...withLimits };
}

/**
 * An arm's run configuration: the shared settings, the arm's own over them (policies replace the shared
 * ones seat by seat), and its run directory `<out>/<name>`.
 */
export function armConfig(shared: Partial<RunConfigInput>, name: string, arm: Arm): Partial<RunConfigInput> {
  const own = toRunConfigInput(arm);
  const out: Partial<RunConfigInput> = { ...shared, ...own };
  if (shared.agents && own.agents && !arm.agents) {
    // agent1/agent2 in an arm replace only the seats they name.
    out.agents = shared.agents.map((a, i) => (arm.agent1 !== undefined && i === 0) || (arm.agent2 !== undefined && i === 1) ? own.agents![i]! : a);
    if (own.agents.length > out.agents.length) out.agents.push(...own.agents.slice(out.agents.length));
  }
  out.out = `${(shared.out ?? 'runs/experiment').replace(/\/+$/, '')}/${name}`;
  return out;
}

/** Maps an experiment onto RunConfig's input shape. */
export function toRunConfigInput(e: Omit<Experiment, 'arms'>): Partial<RunConfigInput> {
  const policy = (p: z.infer<typeof PolicyInput>) => (typeof p === 'string' ? { spec: p } : p);
  const out: Partial<RunConfigInput> = {};
  const copy = [
    'scenarios', 'subset', 'modes', 'out', 'maxTurns', 'turnDeadlineMs', 'repeats', 'concurrency', 'limit', 'replay', 'retryFailed', 'seed', 'rubric',
  ] as const;
  for (const k of copy) if (e[k] !== undefined) (out as Record<string, unknown>)[k] = e[k];
  for (const k of SETTING_KEYS) if ((e as Record<string, unknown>)[k] !== undefined) (out as Record<string, unknown>)[k] = (e as Record<string, unknown>)[k];
  const agents = e.agents?.map(policy) ?? [];
  if (e.agent1 !== undefined) agents[0] = policy(e.agent1);
  if (e.agent2 !== undefined) {
    agents[0] ??= { spec: 'bot' };
    agents[1] = policy(e.agent2);
  }
  if (agents.length) out.agents = agents;
  if (e.scriptWriter !== undefined) out.scriptWriter = policy(e.scriptWriter);
  if (e.judge !== undefined) out.judge = policy(e.judge);
  if (e.pool !== undefined || e.multiplex !== undefined) {
    out.pool = { ...e.pool, ...(e.multiplex !== undefined ? { multiplex: e.multiplex } : {}) };
  }
  return out;
}
