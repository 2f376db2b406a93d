import { writeFileAtomic as writeWhole } from '../disk/atomic-write.js';
import { builtinScenarioSet } from './builtin.js';
import { ScenarioError, ScenarioErrorCode, zodToScenarioError } from './errors.js';
import { parseJsonLines, readText } from './import/read-json.js';
import { compiledForMany } from '../protocol/index.js';
import { Scenario } from './model.js';
import { seatStructureProblem } from './seat-structure.js';

/**
 * Reads a Parley scenario file: JSONL, one Scenario record per line (blank lines ignored). Every line
 * is validated; the first bad one throws a ScenarioError naming the file, the line and the field.
 */
export async function loadScenarioFile(file: string): Promise<Scenario[]> {
  return parseScenarioLines(await readText(file), file);
}

/** Parses JSONL scenario text; `file` is only used in error messages. Scenario ids must be unique. */
export function parseScenarioLines(text: string, file: string): Scenario[] {
  const out: Scenario[] = [];
  const seen = new Map<string, number>();
  const lines = parseJsonLines(text, file);
  const schema = compiledForMany(Scenario, lines.length);
  for (const { json, line } of lines) {
    const scenario = validateScenario(json, { file, line }, schema);
    const before = seen.get(scenario.id);
    if (before !== undefined) {
      throw new ScenarioError(ScenarioErrorCode.DuplicateId, `duplicate scenario id '${scenario.id}' (first on line ${before})`, { file, line, field: 'id' });
    }
    seen.set(scenario.id, line);
    out.push(scenario);
  }
  return out;
}

/** Validates one record against the Scenario schema, turning the first zod issue into a located error. */
export function validateScenario(json: unknown, where: { file: string; line?: number }, schema: typeof Scenario = Scenario): Scenario {
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw zodToScenarioError(parsed.error, where);
  const problem = seatStructureProblem(parsed.data);
  if (problem) throw new ScenarioError(ScenarioErrorCode.UnknownReference, problem.problem, { ...where, field: problem.field });
  return parsed.data;
}

/**
 * Writes scenarios as JSONL, atomically: every record is validated first, then the text goes to a
 * temporary file next to the target which is renamed over it. On any failure nothing is left behind.
 */
export async function writeScenarioFile(file: string, scenarios: readonly Scenario[]): Promise<void> {
  const ids = new Set<string>();
  const lines = scenarios.map((s, i) => {
    const valid = validateScenario(s, { file, line: i + 1 });
    if (ids.has(valid.id)) throw new ScenarioError(ScenarioErrorCode.DuplicateId, `duplicate scenario id '${valid.id}'`, { file, line: i + 1, field: 'id' });
    ids.add(valid.id);
    return JSON.stringify(valid);
  });
  await writeFileAtomic(file, lines.length ? `${lines.join('\n')}\n` : '');
}

/** Writes a whole file atomically (disk/atomic-write.ts), naming the file in a scenario error on failure. */
async function writeFileAtomic(file: string, text: string): Promise<void> {
  try {
    await writeWhole(file, text);
  } catch (err) {
    throw new ScenarioError(ScenarioErrorCode.Io, `cannot write (${(err as Error).message})`, { file }, { cause: err });
  }
}

/** Scenarios tagged with a subset (`hard`, `mutual_friends`, `craigslist_bargains`, …); all when name is empty. */
export function filterSubset(scenarios: readonly Scenario[], name: string | undefined): Scenario[] {
  if (!name) return scenarios.slice();
  return scenarios.filter((s) => s.subsets.includes(name));
}

/**
 * Resolves a `--scenarios` argument: `builtin` (or `builtin:<seed>`) is the generated built-in set,
 * anything else a JSONL scenario file. The built-in group scenarios come with a subset (builtin.ts).
 */
export async function loadScenarios(spec: string, subset?: string): Promise<Scenario[]> {
  const m = /^builtin(?::(-?\d+))?$/.exec(spec);
  if (m) return builtinScenarioSet(m[1] !== undefined ? Number(m[1]) : 1, subset);
  return loadScenarioFile(spec);
}
