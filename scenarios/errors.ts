import type { z } from 'zod';

/** Error codes of the scenarios library (namespaced like the protocol codes). */
export const ScenarioErrorCode = {
  BadJson: 'scenarios/bad_json',
  MissingField: 'scenarios/missing_field',
  InvalidField: 'scenarios/invalid_field',
  UnknownRelationship: 'scenarios/unknown_relationship',
  UnknownReference: 'scenarios/unknown_reference',
  DuplicateId: 'scenarios/duplicate_id',
  Io: 'scenarios/io',
  /** A source file could not be downloaded (server down, HTTP error). */
  Fetch: 'scenarios/fetch',
  /** A downloaded data set does not hold the published number of records. */
  Counts: 'scenarios/counts',
} as const;
export type ScenarioErrorCode = (typeof ScenarioErrorCode)[keyof typeof ScenarioErrorCode];

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
