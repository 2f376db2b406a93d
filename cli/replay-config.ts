/**
 * Honest replay. A replay reruns a recorded run R from its cassettes: the same policies must play the
 * same episodes, or the episode ids (and so the cassettes) do not match and the replay would silently
 * become something else (bots, or an error on every episode).
 *  - `--replay R` with no seat policies given takes R's recorded policies (and, for settings not given,
 *    every recorded setting that shaped the episodes: scenarios, modes, turn limit, repeats, seed, …),
 *    each answered from R's cassettes;
 *  - `--agent1 replay:R` (or agent2, script-writer) means "this seat as it was recorded in R": R's
 *    policy for that seat, answered from R's cassettes. Seats then record the original provider and model.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { policySpecOf, type PolicyConfig } from '../protocol/index.js';
import type { RunConfigInput } from '../orchestrator/run-config.js';
import { readRegularFile, RUN_FILE_CAPS } from '../disk/regular-file.js';
import { RunPaths } from '../run-dir/index.js';
import { consentProblem, type RunDirConsent } from './run-dir-consent.js';

type Input = Partial<RunConfigInput>;

/** The `config` of a recorded run's run.json, or an error naming the file. */
function recordedConfig(dir: string): { ok: true; config: Record<string, unknown> } | { ok: false; message: string } {
  const file = new RunPaths(dir).runJson;
  if (!existsSync(file)) return { ok: false, message: `${dir} is not a recorded run (no run.json)` };
  // Read as every run directory is: a regular file of bounded size (no symlink, FIFO or device).
  const read = readRegularFile(file, RUN_FILE_CAPS.runJson, resolve(dir));
  if (!read.ok) return { ok: false, message: read.message };
  try {
    const run = JSON.parse(read.text) as { config?: unknown };
    if (!run.config || typeof run.config !== 'object' || Array.isArray(run.config)) return { ok: false, message: `${file} records no config` };
    return { ok: true, config: run.config as Record<string, unknown> };
  } catch (err) {
    return { ok: false, message: `${file}: not JSON (${(err as Error).message})` };
  }
}

/** A recorded policy, to be answered from `dir`'s cassettes (the recorded cassetteDir is not carried over). */
function replayed(p: unknown, dir: string): PolicyConfig {
  const { cassetteDir: _c, replayDir: _r, ...rest } = p as PolicyConfig;
  return { ...rest, replayDir: resolve(dir) } as PolicyConfig;
}

/** Recorded settings a replay does not inherit: where and how fast it runs, and what it replays from. */
const NOT_INHERITED = new Set(['out', 'concurrency', 'pool', 'retryFailed', 'replay', 'agents', 'scriptWriter']);

/**
 * Rewrites a run config's replay settings as described above. `given`: the settings the user set
 * (flags or experiment file); the others may be inherited from the recorded run.
 */
export function applyReplay(input: Input, given: ReadonlySet<string>, consent: RunDirConsent = { endpoints: [], keyEnvs: [], paths: [] }): { ok: true; input: Input } | { ok: false; message: string } {
  const out: Input = { ...input };
  // Seat policies `replay:R`: that seat's recorded policy in R.
  const seatReplay = (p: PolicyConfig | undefined, pick: (c: Record<string, unknown>) => unknown, what: string): { ok: true; p?: PolicyConfig } | { ok: false; message: string } => {
    const spec = p ? policySpecOf(p.spec) : undefined;
    if (!p || spec?.kind !== 'replay') return { ok: true, ...(p ? { p } : {}) };
    const dir = spec.dir;
    const rec = recordedConfig(dir);
    if (!rec.ok) return { ok: false, message: `${what} ${p.spec}: ${rec.message}` };
    const policy = pick(rec.config);
    if (!policy) return { ok: false, message: `${what} ${p.spec}: the recorded run has no policy for this seat` };
    return { ok: true, p: replayed(policy, dir) };
  };
  if (out.agents) {
    // `--agent1 replay:R` alone: agent2 defaults to "as agent1", i.e. also as recorded in R.
    const only = out.agents.length === 1 ? (out.agents[0] as PolicyConfig) : undefined;
    const onlySpec = only ? policySpecOf(only.spec) : undefined;
    if (only && onlySpec?.kind === 'replay') {
      const rec = recordedConfig(onlySpec.dir);
      if (rec.ok && Array.isArray(rec.config.agents)) out.agents = rec.config.agents.map(() => only);
    }
    const agents: PolicyConfig[] = [];
    for (let i = 0; i < out.agents.length; i++) {
      const r = seatReplay(out.agents[i] as PolicyConfig, (c) => {
        const recorded = c.agents as unknown[] | undefined;
        return recorded?.[Math.min(i, recorded.length - 1)];
      }, `--agent${i + 1}`);
      if (!r.ok) return r;
      agents.push(r.p!);
    }
    out.agents = agents;
  }
  const writer = seatReplay(out.scriptWriter as PolicyConfig | undefined, (c) => c.scriptWriter, '--script-writer');
  if (!writer.ok) return writer;
  if (writer.p) out.scriptWriter = writer.p;

  // `--replay R` alone: the recorded run's policies and, where not given, its episode selection.
  if (out.replay) {
    const rec = recordedConfig(out.replay);
    if (!rec.ok) return { ok: false, message: `--replay: ${rec.message}` };
    const c = rec.config;
    if (!given.has('agents') && Array.isArray(c.agents)) out.agents = c.agents.map((p) => replayed(p, out.replay!));
    if (!given.has('scriptWriter') && c.scriptWriter) out.scriptWriter = replayed(c.scriptWriter, out.replay);
    // Everything else that shaped the recorded episodes (scenarios, modes, turn limit, protocol, …).
    for (const k of Object.keys(c)) {
      if (NOT_INHERITED.has(k) || given.has(k) || c[k] === undefined) continue;
      (out as Record<string, unknown>)[k] = c[k];
    }
    // A scenario file that has moved since: the recorded run keeps every scenario it used.
    // The recorded run is untrusted: a judge it names is called live, so its endpoint, key variable and
    // rubric need the user's consent; a replayed seat's prompt directory is a path it picks.
    const refused = consentProblem(`${out.replay}/run.json`, [
      ...(!given.has('judge') ? [{ where: 'the judge', policy: c.judge as PolicyConfig | undefined }] : []),
      ...(given.has('agents') ? [] : (out.agents ?? []).map((p, i) => ({ where: `agent${i + 1}`, policy: { promptDir: (p as PolicyConfig).promptDir } }))),
      ...(given.has('scriptWriter') ? [] : [{ where: 'the script writer', policy: { promptDir: (out.scriptWriter as PolicyConfig | undefined)?.promptDir } }]),
    ], consent, given.has('rubric') ? [] : [{ where: 'the rubric file', path: typeof c.rubric === 'string' ? c.rubric : undefined }]);
    if (refused) return { ok: false, message: `--replay: ${refused}` };
    if (!given.has('scenarios') && typeof c.scenarios === 'string' && c.scenarios !== 'builtin' && !c.scenarios.startsWith('builtin:') && !existsSync(c.scenarios)) {
      out.scenarios = new RunPaths(out.replay).scenariosJsonl;
    }
  }
  return { ok: true, input: out };
}
