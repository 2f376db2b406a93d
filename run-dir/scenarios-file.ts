import { existsSync } from 'node:fs';
import { writeFileAtomicSync } from '../disk/atomic-write.js';
import { Scenario } from '../scenarios/model.js';
import { readJsonlFile } from './jsonl-file.js';
import type { RunLock } from './lock.js';
import type { RunPaths } from './paths.js';
import { RunErrorCode } from '../protocol/index.js';

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
  const read = readJsonlFile(file, Scenario);
  if (!read.ok) return read;
  for (const s of read.values) scenarios.set(s.id, s);
  return { ok: true, scenarios };
}
