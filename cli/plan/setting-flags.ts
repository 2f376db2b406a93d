import { SETTING_KEYS, SETTINGS, type SettingKey } from '../../simulation/index.js';
import type { FlagSpecs, FlagValue } from '../args.js';

/*
 * The simulation settings' flags, generated from their declarations (simulation/settings.ts): the help
 * entries and the checks that turn flag values into run-config fields. A new setting needs no edit here.
 */

/** The flags of the settings in one group: `config` (run, serve, demo) or `run` (`parley run` only). */
export function settingFlagSpecs(group: 'config' | 'run'): FlagSpecs {
  const specs: FlagSpecs = {};
  for (const k of SETTING_KEYS) {
    const s = SETTINGS[k];
    if (s.flags !== group) continue;
    specs[s.flag] = { type: s.kind === 'list' || s.kind === 'boolean' ? s.kind : 'string', describe: s.describe, ...(s.metavar ? { metavar: s.metavar } : {}) };
  }
  return specs;
}

/** Flag names by run-config field, to name the flag in validation errors. */
export const SETTING_FLAG_OF: Record<string, string> = Object.fromEntries(SETTING_KEYS.map((k) => [k, `--${SETTINGS[k].flag}`]));

/**
 * The settings given as flags, checked, as run-config fields: a message naming the flag for the first
 * value that is not one of the setting's.
 */
export function settingsFromFlags(flags: Record<string, FlagValue>): { ok: true; values: Partial<Record<SettingKey, unknown>> } | { ok: false; message: string } {
  const values: Partial<Record<SettingKey, unknown>> = {};
  for (const k of SETTING_KEYS) {
    const s = SETTINGS[k];
    const v = flags[s.flag];
    if (v === undefined) continue;
    const options = s.choices ?? [];
    if (s.kind === 'choice') {
      if (!options.includes(String(v))) return { ok: false, message: `--${s.flag}: '${String(v)}' is not one of ${options.join(', ')}` };
      values[k] = v;
    } else if (s.kind === 'list') {
      const items = v as string[];
      const bad = items.find((t) => !options.includes(t));
      if (bad !== undefined) return { ok: false, message: `--${s.flag}: '${bad}' is not one of ${options.join(', ')}` };
      values[k] = items;
    } else if (s.kind === 'boolean') {
      values[k] = v === true;
    } else {
      const text = String(v).trim();
      const problem = s.check?.(text) ?? null;
      if (problem) return { ok: false, message: `--${s.flag}: ${problem}` };
      values[k] = text;
    }
  }
  return { ok: true, values };
}

/** The settings `parley fork` passes on: those that shape the replayed prefix, and those of the live turns only. */
export function forkSettings(kind: 'prefix' | 'live'): SettingKey[] {
  return SETTING_KEYS.filter((k) => SETTINGS[k].fork === kind);
}
