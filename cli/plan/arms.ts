import type { RunConfig } from '../../orchestrator/run-config.js';
import type { FlagValue } from '../args.js';
import { buildRunConfig } from './run-config.js';
import { applyRateLimits } from '../rate-limits.js';
import { loadExperiment } from '../experiment.js';
import { seatLine } from './seat-line.js';

/** One run to make; `protocol` as the experiment or flags named it (read as a plain key: the run config owns it). */
export interface BuiltArm {
  name: string;
  config: RunConfig;
  protocol?: string;
  /** Who plays each seat, defaults marked (seat-line.ts): printed at the start and in the dry run. */
  seats: string;
}

export type BuiltArms = { ok: true; arms: BuiltArm[]; fromArms: boolean } | { ok: false; message: string };

/** The prompt protocol named by `--protocol` or the experiment, if any. */
function protocolOf(flags: Record<string, FlagValue>, input: { protocol?: unknown } | undefined, config: RunConfig): string | undefined {
  const named = flags.protocol ?? (config as { protocol?: unknown }).protocol ?? input?.protocol;
  return typeof named === 'string' ? named : undefined;
}

/**
 * The runs a `parley run` invocation stands for: one per arm of the experiment file (each in
 * `<out>/<arm>`, flags over every arm; `--out` then names the parent directory), or the single run of
 * a file without arms or of flags alone. `--arm NAME,…` keeps only the named arms.
 */
export function buildArms(flags: Record<string, FlagValue>): BuiltArms {
  const file = typeof flags.experiment === 'string' ? flags.experiment : undefined;
  const exp = file ? loadExperiment(file) : undefined;
  if (exp && !exp.ok) return exp;
  const wanted = flags.arm as string[] | undefined;
  if (!exp?.arms) {
    if (wanted) return { ok: false, message: `--arm: ${file ?? 'the run'} has no arms` };
    const built = buildRunConfig(flags);
    if (!built.ok) return built;
    const protocol = protocolOf(flags, exp?.config as { protocol?: unknown } | undefined, built.config);
    return { ok: true, arms: [{ name: 'run', config: built.config, seats: seatLine(built.config, built.seats), ...(protocol ? { protocol } : {}) }], fromArms: false };
  }
  const names = exp.arms.map((a) => a.name);
  const unknown = wanted?.find((w) => !names.includes(w));
  if (unknown) return { ok: false, message: `--arm: '${unknown}' is not an arm of ${file} (arms: ${names.join(', ')})` };
  const { experiment: _file, out, ...rest } = flags;
  const arms: BuiltArm[] = [];
  for (const arm of exp.arms) {
    if (wanted && !wanted.includes(arm.name)) continue;
    // The file's rpm/tpm hold for every arm (seats' own params win).
    const armConfig = exp.limits ? applyRateLimits(arm.config, exp.limits, false) : arm.config;
    const defaults = typeof out === 'string' ? { ...armConfig, out: `${out.replace(/\/+$/, '')}/${arm.name}` } : armConfig;
    const built = buildRunConfig(rest, defaults);
    if (!built.ok) return { ok: false, message: `arm ${arm.name}: ${built.message}` };
    const protocol = protocolOf(flags, arm.config as { protocol?: unknown }, built.config);
    arms.push({ name: arm.name, config: built.config, seats: seatLine(built.config, built.seats), ...(protocol ? { protocol } : {}) });
  }
  return { ok: true, arms, fromArms: true };
}
