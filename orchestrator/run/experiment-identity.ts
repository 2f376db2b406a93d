/**
 * A run directory belongs to one experiment. Rerunning into it with the same settings resumes; with
 * other settings it is refused, naming each difference, before anything in the directory changes.
 * `--extend` lets a rerun add scenarios, modes, repeats or a larger limit to the same experiment (the
 * settings that only add episodes); everything that changes how an episode is played (policies, turn
 * limit, deadline, judge, seed, replay source, protocol) is never mixed into one directory.
 */
import { RunConfig } from '../run-config.js';
import { RECORDED_KEYS, SETTINGS } from '../../simulation/settings.js';

/** Settings that only select which episodes run: changing them adds episodes (allowed with --extend). */
export const EXTENDABLE = ['scenarios', 'subset', 'modes', 'repeats', 'limit', 'forkAt'] as const;
/** Settings of how the run is executed, not of what it measures: they may change between invocations. */
export const OPERATIONAL = ['out', 'concurrency', 'pool', 'retryFailed', 'repairScenarios', 'redraw'] as const;
/**
 * Every other setting (policies, judge, turn limit, deadline, seed, replay source, and any setting
 * added to RunConfig later) changes how an episode is played: never mixed in one run directory.
 */

/**
 * Protocol settings the protocol's key names whenever they depart from the protocol's default (`idPart`):
 * they are compared as resolved, by protocolChange, not as given. As given, a run.json written before such a
 * setting existed holds none, and giving the value that run used (`--agent-temperature paper` for a paper run
 * from before the setting, whose agents sampled at 0.7) compared as "(unset) → paper": a run that could be
 * continued no longer could. A real change still differs in the resolved key and is refused there.
 */
const KEYED: readonly string[] = RECORDED_KEYS.filter((k) => SETTINGS[k].idPart !== undefined);

type Field = string;
/** One entry of run.json's `history`: each invocation that ran into the directory. */
export interface HistoryEntry {
  startedAt: string;
  /** Whether this invocation extended the experiment (`--extend`). */
  extend: boolean;
  /** Settings that differed from the invocation before (empty for a plain resume). */
  changed: string[];
  config: Partial<RunConfig>;
}

const show = (v: unknown) => (v === undefined ? '(unset)' : typeof v === 'string' ? v : JSON.stringify(v));

/** Defaults of every setting, so a run.json written before a setting existed compares as its default. */
const DEFAULTS = RunConfig.parse({ out: '.' }) as Record<string, unknown>;

/** The settings that differ between a recorded config and a new one, as `name: old → new`. */
export function configDifferences(before: Record<string, unknown>, after: RunConfig): { field: Field; text: string }[] {
  const out: { field: Field; text: string }[] = [];
  const now = after as Record<string, unknown>;
  const fields = [...new Set([...Object.keys(before), ...Object.keys(now)])].filter((f) => !(OPERATIONAL as readonly string[]).includes(f) && !KEYED.includes(f));
  const order = (f: string) => ((EXTENDABLE as readonly string[]).includes(f) ? 0 : 1);
  for (const field of fields.sort((a, b) => order(a) - order(b))) {
    const a = normalise(field, field in before ? before[field] : DEFAULTS[field]);
    const b = normalise(field, field in now ? now[field] : DEFAULTS[field]);
    if (JSON.stringify(a) !== JSON.stringify(b)) out.push({ field, text: `${field}: ${show(a)} → ${show(b)}` });
  }
  return out;
}

/** Policies compared by what plays, not by directories the driver fills in. */
function normalise(field: Field, v: unknown): unknown {
  const strip = (p: unknown) => {
    if (!p || typeof p !== 'object') return p;
    const { cassetteDir: _c, replayDir: _r, ...rest } = p as Record<string, unknown>;
    if (rest.params && typeof rest.params === 'object' && Object.keys(rest.params).length === 0) delete rest.params;
    return rest;
  };
  if (field === 'agents' && Array.isArray(v)) return v.map(strip);
  if (field === 'scriptWriter' || field === 'judge') return strip(v);
  if ((field === 'modes' || field === 'forkAt') && Array.isArray(v)) return [...v].sort();
  return v;
}

export type IdentityCheck = { ok: true; changed: string[] } | { ok: false; message: string };

/**
 * Whether `config` may run into a directory whose run.json is `previous` (null: a fresh directory).
 * A plain rerun matches the latest config or any earlier one of its history (the command that started
 * it, before an --extend); an --extend may change only the EXTENDABLE settings.
 */
export function checkExperimentIdentity(previous: Record<string, unknown> | null, config: RunConfig, extend: boolean, dir: string): IdentityCheck {
  const recorded = previous?.config;
  if (!recorded || typeof recorded !== 'object') return { ok: true, changed: [] };
  const diffs = configDifferences(recorded as Record<string, unknown>, config);
  if (!diffs.length) return { ok: true, changed: [] };
  const history = Array.isArray(previous.history) ? (previous.history as HistoryEntry[]) : [];
  if (!extend && history.some((h) => h.config && configDifferences(h.config as Record<string, unknown>, config).length === 0)) return { ok: true, changed: [] };
  const defining = diffs.filter((d) => !(EXTENDABLE as readonly string[]).includes(d.field));
  if (extend && !defining.length) return { ok: true, changed: diffs.map((d) => d.field) };
  const named = (extend ? defining : diffs).map((d) => d.text).join('; ');
  const hint = extend || defining.length
    ? 'use a new --out for a different experiment'
    : `add --extend to add these to the same experiment, or use a new --out`;
  return { ok: false, message: `${dir} holds another experiment (run ${String(previous.runId ?? '?')}); differing settings: ${named}. Nothing was changed; ${hint}` };
}

/**
 * The protocol is resolved from the scenarios when the config does not name it, so a config check alone
 * can miss a change (a SOTOPIA run extended with built-in scenarios would turn from paper to parley and
 * plan every episode again under new ids). Null when the run directory's recorded protocol is the same.
 */
export function protocolChange(previous: Record<string, unknown> | null, resolvedKey: string, recordedKey: (p: unknown) => string | null, dir: string): string | null {
  const before = previous ? recordedKey(previous['protocol']) : null;
  if (before === null || before === resolvedKey) return null;
  return `${dir} holds a run with protocol ${before}; this one resolves to ${resolvedKey} (give --protocol and its settings as that run had them: its run.json's "protocol", or use another --out). Nothing was changed.`;
}
