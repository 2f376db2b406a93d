import type { Action } from '../../../protocol/index.js';

/** SOTOPIA at the paper's tag applies this to one model only: Mixtral-8x7B-Instruct (`LLMAgent.aact`). */
const MIXTRAL_8X7B = /Mixtral-8x7B-Instruct-v0\.1/i;

/**
 * Under `--protocol paper`, Mixtral-8x7B's spoken argument loses a leading `<own name>: ` or
 * `<own name> said: `, as SOTOPIA's agent did for that model (it tends to echo the history's line
 * format). Every other model and action is left as it came.
 */
export function stripOwnNamePrefix(action: Action, model: string, ownName: string | undefined): Action {
  if (action.type !== 'speak' || !ownName || !MIXTRAL_8X7B.test(model)) return action;
  for (const prefix of [`${ownName} said: `, `${ownName}: `]) {
    if (action.argument.startsWith(prefix)) return { ...action, argument: action.argument.slice(prefix.length) };
  }
  return action;
}
