import type * as z from 'zod';
import { BUILTIN_CHARACTERS } from '../characters.js';
import { ScenarioError, ScenarioErrorCode } from '../errors.js';
import type { Character } from '../model.js';
import { createRng, deriveSeed } from '../rng.js';
import { arrayElementLines, parseJsonDocument, readText, validate } from './read-json.js';

export interface CocoaImportOptions {
  /** Seed for assigning Parley's characters (cocoa has none). */
  seed?: number;
  characters?: readonly Character[];
}

/** The records of a cocoa scenario file (a JSON list) with the line each one starts on. */
export async function readCocoaList(file: string): Promise<{ raw: unknown; line: number; index: number }[]> {
  const text = await readText(file);
  const json = parseJsonDocument(text, file);
  if (!Array.isArray(json)) {
    throw new ScenarioError(ScenarioErrorCode.InvalidField, 'expected a JSON list of scenarios', { file, line: 1, field: '(root)' });
  }
  const lines = arrayElementLines(text);
  return json.map((raw, index) => ({ raw, line: lines[index] ?? 1, index }));
}

/** One scenario of a cocoa file, as both importers start from it. */
export interface CocoaScenario<T> {
  s: T;
  where: { file: string; line: number };
  index: number;
  /** The two characters drawn for it (cocoa has none), in seat order. */
  characters: [Character, Character];
}

/**
 * The scenarios of a cocoa file one at a time, in file order (so the first wrong record is the one
 * named): `before` may refuse a record for what it is (another kind of file), then it is validated by
 * `schema`, a repeated uuid is refused, and two characters are drawn from the pool, seeded by the
 * import's seed and the uuid, so that the same scenario gets the same characters on every import.
 */
export async function* cocoaScenarios<T extends { uuid: string }>(
  file: string,
  schema: z.ZodType<T>,
  opts: CocoaImportOptions,
  before?: (raw: unknown, where: { file: string; line: number }, index: number) => void,
): AsyncGenerator<CocoaScenario<T>> {
  const ids = new Set<string>();
  for (const rec of await readCocoaList(file)) {
    const where = { file, line: rec.line };
    before?.(rec.raw, where, rec.index);
    const s = validate(schema, rec.raw, where, [rec.index]);
    if (ids.has(s.uuid)) throw new ScenarioError(ScenarioErrorCode.DuplicateId, `duplicate uuid '${s.uuid}'`, { ...where, field: `${rec.index}.uuid` });
    ids.add(s.uuid);
    const characters = createRng(deriveSeed(opts.seed ?? 1, s.uuid)).sample(opts.characters ?? BUILTIN_CHARACTERS, 2) as [Character, Character];
    yield { s, where, index: rec.index, characters };
  }
}
