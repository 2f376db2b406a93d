import { existsSync, readFileSync } from 'node:fs';
import { writeFileAtomicSync } from '../disk/atomic-write.js';
import { Scenario } from '../scenarios/model.js';
import type { RunPaths } from './paths.js';

/** Writes every scenario a run uses, in full, atomically (the judge and the metrics read them back). */
export function writeRunScenarios(paths: RunPaths, scenarios: readonly Scenario[]): void {
  writeFileAtomicSync(paths.scenariosJsonl, scenarios.map((s) => JSON.stringify(s) + '\n').join(''));
}

export type RunScenariosRead = { ok: true; scenarios: Map<string, Scenario> } | { ok: false; code: 'run/bad_json' | 'run/bad_record'; message: string };

/** The run's scenarios by id; an empty map when the file is absent (metrics needing them are then null). */
export function readRunScenarios(paths: RunPaths): RunScenariosRead {
  const scenarios = new Map<string, Scenario>();
  const file = paths.scenariosJsonl;
  if (!existsSync(file)) return { ok: true, scenarios };
  const lines = readFileSync(file, 'utf8').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (!line) continue;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch (err) {
      return { ok: false, code: 'run/bad_json', message: `${file}:${i + 1}: not JSON (${(err as Error).message})` };
    }
    const parsed = Scenario.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return { ok: false, code: 'run/bad_record', message: `${file}:${i + 1}: field ${issue?.path.map(String).join('.') || '(record)'}: ${issue?.message ?? 'invalid'}` };
    }
    scenarios.set(parsed.data.id, parsed.data);
  }
  return { ok: true, scenarios };
}
