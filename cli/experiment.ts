import { readFileSync } from 'node:fs';
import { isNode, LineCounter, parseDocument } from 'yaml';
import { z } from 'zod';
import { Mode, PolicyConfig } from '../protocol/index.js';
import type { RunConfigInput } from '../orchestrator/run-config.js';
import type { RateLimits } from './rate-limits.js';

/** Policy specs the agent processes understand (see protocol/policy-config.ts). */
export const POLICY_SPEC = /^(bot(:[\w.-]+)?|human|(openai|mistral):\S+|replay:\S+)$/;
const Spec = z.string().regex(POLICY_SPEC, 'expected bot, bot:<name>, openai:<model>, mistral:<model>, replay:<dir> or human');

/** A policy in an experiment file: a spec string, or a full PolicyConfig. */
/** Per seat: `baseURL`, `apiKeyEnv`, `params` (sampling + LLM client settings), `promptDir`; a misspelt key is an error. */
const PolicyInput = z.union([Spec, PolicyConfig.extend({ spec: Spec }).strict()]);

const ModesInput = z.union([z.array(Mode).min(1), z.string().transform((s, ctx) => {
  const modes = s.split(',').map((m) => m.trim()).filter(Boolean);
  for (const m of modes) if (!Mode.safeParse(m).success) ctx.addIssue({ code: 'custom', message: `unknown mode '${m}' (script, agents, mindreaders)` });
  return modes as Mode[];
})]);

/**
 * An experiment file: the run's configuration in YAML, with the same names as RunConfig
 * (camelCase), plus `agent1`/`agent2` shorthands and `multiplex`. Unknown keys are errors, so a typo
 * never silently falls back to a default.
 */
export const Experiment = z
  .object({
    scenarios: z.string().min(1),
    subset: z.string().min(1),
    modes: ModesInput,
    out: z.string().min(1),
    maxTurns: z.number().int().positive(),
    turnDeadlineMs: z.number().int().positive(),
    repeats: z.number().int().positive(),
    concurrency: z.number().int().positive(),
    limit: z.number().int().positive(),
    agents: z.array(PolicyInput).min(1),
    agent1: PolicyInput,
    agent2: PolicyInput,
    scriptWriter: PolicyInput,
    judge: PolicyInput,
    replay: z.string().min(1),
    multiplex: z.boolean(),
    pool: z.object({ multiplex: z.boolean().optional(), seatsPerProcess: z.number().int().positive().optional() }).strict(),
    retryFailed: z.boolean(),
    seed: z.number().int(),
    /** Requests / tokens per minute for every LLM seat (a seat's own params win); shared by all workers under --queue. */
    rpm: z.number().int().nonnegative(),
    tpm: z.number().int().nonnegative(),
  })
  .partial()
  .strict();
export type Experiment = z.infer<typeof Experiment>;

export type ExperimentResult = { ok: true; config: Partial<RunConfigInput>; limits?: RateLimits } | { ok: false; message: string };

/** Reads and validates an experiment file; errors name the file, the line and the field. */
export function loadExperiment(file: string): ExperimentResult {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    return { ok: false, message: `${file}: cannot read (${(err as Error).message})` };
  }
  return parseExperiment(text, file);
}

export function parseExperiment(text: string, file: string): ExperimentResult {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  if (doc.errors.length) {
    const e = doc.errors[0]!;
    const line = e.linePos?.[0]?.line ?? (e.pos ? lineCounter.linePos(e.pos[0]).line : undefined);
    return { ok: false, message: `${file}${line ? `:${line}` : ''}: invalid YAML (${e.message.split('\n')[0]})` };
  }
  const data: unknown = doc.toJS() ?? {};
  const parsed = Experiment.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0]!] : issue.path;
    const line = lineOf(doc, lineCounter, path);
    const field = path.map(String).join('.') || '(file)';
    const what = issue.code === 'unrecognized_keys' ? `unknown key '${issue.keys[0]}'` : issue.message;
    return { ok: false, message: `${file}${line ? `:${line}` : ''}: ${field}: ${what}` };
  }
  const limits: RateLimits = {};
  if (parsed.data.rpm !== undefined) limits.rpm = parsed.data.rpm;
  if (parsed.data.tpm !== undefined) limits.tpm = parsed.data.tpm;
  return { ok: true, config: toRunConfigInput(parsed.data), ...(Object.keys(limits).length ? { limits } : {}) };
}

/** Maps an experiment onto RunConfig's input shape. */
export function toRunConfigInput(e: Experiment): Partial<RunConfigInput> {
  const policy = (p: z.infer<typeof PolicyInput>) => (typeof p === 'string' ? { spec: p } : p);
  const out: Partial<RunConfigInput> = {};
  const copy = ['scenarios', 'subset', 'modes', 'out', 'maxTurns', 'turnDeadlineMs', 'repeats', 'concurrency', 'limit', 'replay', 'retryFailed', 'seed'] as const;
  for (const k of copy) if (e[k] !== undefined) (out as Record<string, unknown>)[k] = e[k];
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

/** 1-based line of the deepest node of `path` present in the document. */
function lineOf(doc: ReturnType<typeof parseDocument>, lc: LineCounter, path: readonly PropertyKey[]): number | null {
  for (let n = path.length; n >= 0; n--) {
    const node = n === 0 ? doc.contents : doc.getIn(path.slice(0, n) as unknown[], true);
    if (isNode(node) && node.range) return lc.linePos(node.range[0]).line;
  }
  return null;
}
