import { resolve } from 'node:path';
import { CLIENT_SETTING_KEYS } from '../../llm/options.js';
import { unknownSamplingKey } from '../../llm/sampling-keys.js';
import { llmProviderOf, type PolicyConfig } from '../../protocol/index.js';
import type { ForkParent } from '../../orchestrator/fork/parent.js';
import type { RunConfig, RunConfigInput } from '../../orchestrator/run-config.js';
import type { FlagValue } from '../args.js';
import { parseParam } from '../command.js';
import { nonLlmParamProblem } from '../non-llm-params.js';
import { buildRunConfig } from '../plan/run-config.js';
import { forkSettings } from '../plan/setting-flags.js';
import { flagOf, SETTINGS } from '../../simulation/index.js';

/**
 * Settings that shape what a seat is told before the fork turn (its welcome, partner states, prompts):
 * a fork keeps its parent's, so the replayed prefix is the parent's. Given with another value, they are
 * refused, each with its flag.
 */
const PREFIX_SETTINGS: readonly (readonly [keyof RunConfig, string])[] = [
  ['scenarios', '--scenarios'],
  ['subset', '--subset'],
  ['seed', '--seed'],
  ...forkSettings('prefix').map((k) => [k, flagOf(k)] as const),
];

/** The flags of `parley run` a fork passes on to the run config (the rest are the fork's own). */
const RUN_CONFIG_FLAGS = [
  'out', 'max-turns', 'turn-deadline-ms', 'repeats', 'concurrency', 'agent1', 'agent2', 'judge', 'replay',
  'retry-failed', 'reformat-model', 'scenarios', 'subset', 'seed',
  'allow-endpoint', 'allow-key-env', 'allow-path',
  ...[...forkSettings('live'), ...forkSettings('prefix')].map((k) => SETTINGS[k].flag),
];

export type ForkConfig = { ok: true; config: RunConfig } | { ok: false; message: string };

const show = (v: unknown) => (v === undefined ? '(unset)' : typeof v === 'string' ? v : JSON.stringify(v));

/**
 * The fork run's config: the parent's own settings (policies per seat, sampling, limits, protocol), the
 * changes given as flags over them, and the fork itself (parent, episode, fork turns, reveals). A change
 * that would alter the replayed prefix (another scenario set, mode or protocol) is refused here with one
 * line; whether the prefix replays exactly is checked again against the parent's ledgers by the run.
 */
export function buildForkConfig(parent: ForkParent, flags: Record<string, FlagValue>, forkAt: number[], reveal: string[]): ForkConfig {
  const p = parent.config;
  const seats = parent.scenario.seats;
  // One policy per seat, so that changing one seat's never changes another's ("agent2 as agent1").
  // The parent's policies as they play, not where a replay of it read its cassettes from.
  const own = ({ cassetteDir: _c, replayDir: _r, resume: _s, ...rest }: RunConfig['scriptWriter']) => rest;
  const agents = seats.map((_, i) => own(p.agents[Math.min(i, p.agents.length - 1)]!));
  if (flags.modes !== undefined) {
    const modes = flags.modes as string[];
    if (modes.length !== 1 || modes[0] !== parent.record.mode) {
      return { ok: false, message: `--modes ${modes.join(',')} would change the replayed prefix: episode ${parent.record.episodeId} was played in ${parent.record.mode} mode, and a fork keeps its parent's scenario, mode and protocol` };
    }
  }
  const defaults: Partial<RunConfigInput> = {
    ...p,
    agents,
    scriptWriter: own(p.scriptWriter),
    modes: [parent.record.mode],
    repeats: 1,
    retryFailed: false,
    fork: { parent: parent.dir, parentRun: parent.runId, episode: parent.record.episodeId, reveal },
    forkAt,
  };
  // A fork's own settings, never the parent's: where it goes, what it replays from, how many it plays.
  for (const k of ['out', 'replay', 'limit'] as const) delete defaults[k];
  const passed = Object.fromEntries(RUN_CONFIG_FLAGS.filter((f) => flags[f] !== undefined).map((f) => [f, flags[f]!]));
  const built = buildRunConfig(passed, defaults);
  if (!built.ok) return built;
  const config = built.config;
  for (const [key, flag] of PREFIX_SETTINGS) {
    if (JSON.stringify(config[key]) !== JSON.stringify(p[key])) {
      return { ok: false, message: `${flag} ${show(config[key])} would change the replayed prefix (episode ${parent.record.episodeId} was played with ${show(p[key])}): a fork keeps its parent's scenario, mode and protocol; change policies, sampling or later limits instead` };
    }
  }
  if (resolve(config.out) === parent.dir) return { ok: false, message: `--out ${config.out} is the parent run: a fork writes its own run directory` };
  const params = applyParams(config, (flags.param as string[] | undefined) ?? [], seats.length);
  if (!params.ok) return params;
  return { ok: true, config };
}

/** `--param agent2.temperature=0.2`: a sampling parameter of one seat's policy (`agentN` by seat position), over the parent's. */
function applyParams(config: RunConfig, texts: readonly string[], seats: number): { ok: true } | { ok: false; message: string } {
  for (const text of texts) {
    const [key, value] = parseParam(text);
    const dot = key.indexOf('.');
    const who = dot > 0 ? key.slice(0, dot) : '';
    const name = key.slice(dot + 1);
    if (!name || !/^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(name)) return { ok: false, message: `--param '${text}': expected SEAT.KEY=VALUE, e.g. agent2.temperature=0.2` };
    const m = /^agent([1-9])$/.exec(who);
    const i = m ? Number(m[1]) - 1 : -1;
    if (m && i >= seats) return { ok: false, message: `--param '${text}': the episode has ${seats} seats (agent1–agent${seats})` };
    if (!m) return { ok: false, message: `--param '${text}': expected SEAT.KEY=VALUE with SEAT agent1, agent2, …` };
    const policy: PolicyConfig = config.agents[i]!;
    // A misspelt key would be dropped or rejected mid-run: refused now, as in an experiment file.
    const provider = llmProviderOf(policy.spec);
    const inert = provider ? null : nonLlmParamProblem(policy.spec, name);
    if (inert) return { ok: false, message: `--param '${text}': ${who} ${inert}` };
    const bad = provider && !CLIENT_SETTING_KEYS.includes(name) ? unknownSamplingKey(provider, [name]) : null;
    if (bad) return { ok: false, message: `--param '${text}': '${name}' is not a ${provider} parameter (allowed: ${bad.allowed.join(', ')})` };
    config.agents[i] = { ...policy, params: { ...policy.params, [name]: value } };
  }
  return { ok: true };
}
