import type * as z from 'zod';
import { ScenarioErrorCode } from '../protocol/codes.js';

/** The scenarios library's codes live in the one registry (protocol/codes.ts); re-exported for its callers. */
export { ScenarioErrorCode };

/**
 * A problem with a scenario or source-data file, located precisely enough to fix it by hand:
 * the file, the 1-based line (or record index for JSON arrays) and the field path.
 */
export class ScenarioError extends Error {
  readonly code: ScenarioErrorCode;
  readonly file: string;
  readonly line: number | undefined;
  readonly field: string | undefined;

  constructor(code: ScenarioErrorCode, detail: string, where: { file: string; line?: number; field?: string }, options?: { cause?: unknown }) {
    const loc = [where.file, where.line !== undefined ? `line ${where.line}` : undefined, where.field !== undefined ? `field '${where.field}'` : undefined]
      .filter(Boolean)
      .join(', ');
    super(`${loc}: ${detail}`, options);
    this.name = 'ScenarioError';
    this.code = code;
    this.file = where.file;
    this.line = where.line;
    this.field = where.field;
  }
}

/** Formats a zod issue path (`seats.0.goal`) the way error messages name fields. */
export function fieldPath(path: readonly PropertyKey[]): string {
  return path.map(String).join('.') || '(record)';
}

/** The first issue of a zod error as a ScenarioError (missing field vs invalid field). */
export function zodToScenarioError(error: z.ZodError, where: { file: string; line?: number }, prefix: readonly PropertyKey[] = []): ScenarioError {
  const issue = error.issues[0]!;
  const field = fieldPath([...prefix, ...issue.path]);
  const missing = issue.code === 'invalid_type' && /received undefined/.test(issue.message);
  return new ScenarioError(
    missing ? ScenarioErrorCode.MissingField : ScenarioErrorCode.InvalidField,
    missing ? 'missing field' : `invalid value (${issue.message})`,
    { ...where, field },
  );
}
