import type { Action } from '../../../protocol/index.js';

/** SOTOPIA at the paper's tag applies this to one model only: Mixtral-8x7B-Instruct (`LLMAgent.aact`). */
const MIXTRAL_8X7B = /Mixtral-8x7B-Instruct-v0\.1/i;

/**
 * Under `--protocol paper`, Mixtral-8x7B's argument loses its own-name echoes, as SOTOPIA's agent did for
 * that model (it tends to copy the history's line format). Followed as the code did it, not as a prefix
 * strip: for every action type, if `<own name>:` occurs anywhere, every `<own name>: ` is removed;
 * otherwise, if `<own name> said:` occurs, every `<own name> said: ` is removed. Other models are untouched.
 */
export function stripOwnNamePrefix(action: Action, model: string, ownName: string | undefined): Action {
  if (!ownName || !MIXTRAL_8X7B.test(model) || !action.argument) return action;
  const arg = action.argument;
  // The test looks for the name and colon, the removal for the name, colon and space: as SOTOPIA did.
  if (arg.includes(`${ownName}:`)) return { ...action, argument: arg.replaceAll(`${ownName}: `, '') };
  if (arg.includes(`${ownName} said:`)) return { ...action, argument: arg.replaceAll(`${ownName} said: `, '') };
  return action;
}
