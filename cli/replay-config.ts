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
import { readRunJson, RunPaths, type RecordedRunConfig } from '../run-dir/index.js';
import { consentProblem, type RunDirConsent } from './run-dir-consent.js';

type Input = Partial<RunConfigInput>;

/**
 * The recorded configuration of run `dir`, read typed through run-dir/ as every command reads run.json (a
 * regular file of bounded size, checked against its schema), or an error naming the file and the field.
 */
function recordedConfig(dir: string): { ok: true; config: RecordedRunConfig } | { ok: false; message: string } {
  const read = readRunJson(new RunPaths(dir));
  if (!read.ok) return { ok: false, message: read.message };
  if (!read.run) return { ok: false, message: `${dir} is not a recorded run (no run.json)` };
  return { ok: true, config: read.run.config };
}

/** A recorded policy, to be answered from `dir`'s cassettes (the recorded cassetteDir is not carried over). */
function replayed(p: PolicyConfig, dir: string): PolicyConfig {
  const { cassetteDir: _c, replayDir: _r, ...rest } = p;
  return { ...rest, replayDir: resolve(dir) };
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
  const seatReplay = (p: PolicyConfig | undefined, pick: (c: RecordedRunConfig) => PolicyConfig | undefined, what: string): { ok: true; p?: PolicyConfig } | { ok: false; message: string } => {
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
        const recorded = c.agents;
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
      const value = (c as Record<string, unknown>)[k];
      if (NOT_INHERITED.has(k) || given.has(k) || value === undefined) continue;
      (out as Record<string, unknown>)[k] = value;
    }
    // A scenario file that has moved since: the recorded run keeps every scenario it used.
    // The recorded run is untrusted: a judge it names is called live, so its endpoint, key variable and
    // rubric need the user's consent; a replayed seat's prompt directory is a path it picks.
    const refused = consentProblem(`${out.replay}/run.json`, [
      ...(!given.has('judge') ? [{ where: 'the judge', policy: c.judge }] : []),
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
