import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { packagePath } from '../../disk/package-root.js';

/*
 * Instruction framing as a claim key (issue 43): `instructions: NAME` sets the prompt templates of every
 * LLM seat to a variant shipped with Parley (agent-node/prompts/variants/NAME/, `default` being the
 * built-in templates), or to a directory of the user's own (a value with a `/`, read only with
 * `--allow-path DIR`, as any template directory Parley did not write itself). A variant overrides the
 * templates it has and falls back to the built-in ones for the rest, so it is set only on the seats whose
 * templates it has: a variant of the agents' instructions leaves the script writer's arm as it was.
 */

export const VARIANTS_DIR = packagePath('agent-node', 'prompts', 'variants');

/** `instructions: default`: the built-in templates, no prompt directory. */
export const DEFAULT_INSTRUCTIONS = 'default';

/** The template files each kind of seat reads (agent-node/policies/llm/templates.ts names them). */
const SEAT_TEMPLATES = {
  agents: ['agent.md', 'agent-paper.md', 'reformat.md', 'reformat-paper.md'],
  scriptWriter: ['script.md', 'script-paper.md', 'reformat.md', 'reformat-script-paper.md'],
} as const;

/** The shipped variants' names, `default` first. */
export function shippedInstructions(): string[] {
  const names = existsSync(VARIANTS_DIR) ? readdirSync(VARIANTS_DIR).filter((n) => statSync(join(VARIANTS_DIR, n)).isDirectory()).sort() : [];
  return [DEFAULT_INSTRUCTIONS, ...names];
}

/** A value naming a directory of the user's own rather than a shipped variant. */
export function isUserInstructions(value: string): boolean {
  return value.includes('/');
}

/** The directory of a value (undefined: the built-in templates). */
export function instructionsDir(value: string): string | undefined {
  if (value === DEFAULT_INSTRUCTIONS) return undefined;
  return isUserInstructions(value) ? value : join(VARIANTS_DIR, value);
}

/** Which seats a directory's templates reach. */
export function instructionSeats(dir: string): { agents: boolean; scriptWriter: boolean } {
  const has = (files: readonly string[]) => files.some((f) => existsSync(join(dir, f)));
  return { agents: has(SEAT_TEMPLATES.agents), scriptWriter: has(SEAT_TEMPLATES.scriptWriter) };
}

/** Why a value cannot be used, or null. */
export function instructionsProblem(value: string): string | null {
  if (!isUserInstructions(value)) {
    const shipped = shippedInstructions();
    return shipped.includes(value) ? null : `'${value}' is not an instruction variant (shipped: ${shipped.join(', ')}; a directory of your own is a path with a /)`;
  }
  if (!existsSync(value) || !statSync(value).isDirectory()) return `${value}: no such directory`;
  const seats = instructionSeats(value);
  if (!seats.agents && !seats.scriptWriter) return `${value} holds no prompt template (${[...new Set([...SEAT_TEMPLATES.agents, ...SEAT_TEMPLATES.scriptWriter])].join(', ')})`;
  return null;
}
