/**
 * Turns anything a command threw into one line and an exit code: usage mistakes and invalid settings
 * (zod, a run's bad configuration) are 2, anything else 1. The stack stays out of the user's way.
 */
import { ZodError } from 'zod';
import { UsageError } from './command.js';
import { SettingsError } from '../evaluator/settings-error.js';
import { RunError, RunErrorCode } from '../orchestrator/run/run-error.js';
import { ScenarioError, ScenarioErrorCode } from '../scenarios/errors.js';

export function describeFailure(err: unknown): { message: string; exitCode: number } {
  if (err instanceof UsageError || err instanceof SettingsError) return { message: err.message, exitCode: 2 };
  // Settings that do not fit the scenarios (a `--mindread` seat no scenario has, a paper-only flag under parley) are bad arguments too.
  if (err instanceof RunError && err.code === RunErrorCode.BadConfig) return { message: err.message, exitCode: 2 };
  // A scenario file that does not validate (FILE, line, field) is a refused input, like a bad flag; not an I/O failure.
  if (err instanceof RunError && err.code === RunErrorCode.ScenarioLoad && err.cause instanceof ScenarioError && err.cause.code !== ScenarioErrorCode.Io) return { message: err.message, exitCode: 2 };
  if (err instanceof ZodError) {
    const issue = err.issues[0];
    const where = issue?.path.length ? `${issue.path.map(String).join('.')}: ` : '';
    return { message: `${where}${issue?.message ?? 'invalid settings'}`, exitCode: 2 };
  }
  if (err instanceof Error) return { message: err.message.split('\n')[0] ?? String(err), exitCode: 1 };
  return { message: String(err), exitCode: 1 };
}
