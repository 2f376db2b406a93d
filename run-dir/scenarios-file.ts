import { existsSync } from 'node:fs';
import { writeFileAtomicSync } from '../disk/atomic-write.js';
import { Scenario } from '../scenarios/model.js';
import { readJsonlFile } from './jsonl-file.js';
import type { RunLock } from './lock.js';
import type { RunPaths } from './paths.js';
import { RunErrorCode } from '../protocol/index.js';
import { terminalSafe } from '../text/terminal.js';

/** Writes every scenario a run uses, in full, atomically (the judge and the metrics read them back). */
export function writeRunScenarios(lock: RunLock, scenarios: readonly Scenario[]): void {
  writeFileAtomicSync(lock.paths.scenariosJsonl, scenarios.map((s) => JSON.stringify(s) + '\n').join(''));
}

export type RunScenariosRead = { ok: true; scenarios: Map<string, Scenario> } | { ok: false; code: typeof RunErrorCode.BadJson | typeof RunErrorCode.BadRecord; message: string };

/** The run's scenarios by id; an empty map when the file is absent (metrics needing them are then null). */
export function readRunScenarios(paths: RunPaths): RunScenariosRead {
  const scenarios = new Map<string, Scenario>();
  const file = paths.scenariosJsonl;
  if (!existsSync(file)) return { ok: true, scenarios };
  const read = readJsonlFile(file, Scenario, paths.dir);
  if (!read.ok) return read;
  for (const s of read.values) scenarios.set(s.id, s);
  return { ok: true, scenarios };
}

/**
 * The scenario ids recorded episodes use that `scenarios` lacks, each once, sorted: records are written in
 * the order episodes finish, which differs between runs, and the message naming them must not.
 */
export function missingScenarioIds(recordedIds: Iterable<string>, scenarios: ReadonlyMap<string, unknown>): string[] {
  const missing = new Set<string>();
  for (const id of recordedIds) if (!scenarios.has(id)) missing.add(id);
  return [...missing].sort();
}

/**
 * One line saying which scenarios a run directory lacks and how to put them back: the run's own command
 * with `--extend --repair-scenarios`, from a scenario source that holds them (`source`, as run.json
 * records it, is only shown: the directory is untrusted and never chooses what is read).
 */
export function missingScenariosMessage(paths: RunPaths, missing: readonly string[], source: unknown): string {
  const shown = missing.slice(0, 5).map((id) => terminalSafe(id)).join(', ') + (missing.length > 5 ? ` and ${missing.length - 5} more` : '');
  // A plain path is shown as recorded; anything else (spaces, quotes, controls) as a placeholder.
  const from = typeof source === 'string' && /^[\w./-]{1,200}$/.test(source) ? source : 'FILE';
  return (
    `${paths.scenariosJsonl} lacks ${missing.length} scenario(s) that recorded episodes use (${shown}); ` +
    `restore them with the run's command plus --extend --repair-scenarios, e.g. parley run --out ${terminalSafe(paths.dir)} --scenarios ${from} --extend --repair-scenarios`
  );
}
