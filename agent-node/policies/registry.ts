import { checkPolicySpec, policySpecForms } from '../../llm/spec.js';
import type { PolicyConfig } from '../../protocol/index.js';
import type { Policy } from '../policy.js';
import { botOptions } from './bot/bot-policy.js';
import { BOT_NAMES, createBotPolicy, type BotName } from './bot/index.js';
import { PolicyConfigCode, PolicyConfigError } from './errors.js';
import { createHumanPolicy } from './human.js';

/** The spec forms `createPolicy` understands (the providers registered now), for error messages. */
export const policySpecs = (): string[] => ['bot', ...BOT_NAMES.map((n) => `bot:${n}`), ...policySpecForms().filter((f) => f !== 'bot' && f !== 'bot:<name>')];

/** The spec forms for `--help`: the built-in providers. */
export const POLICY_SPECS: readonly string[] = policySpecs();

/**
 * Builds the policy a seat is played with. Bots and the human policy live here; LLM policies
 * (a registered provider's `<provider>:`, `replay:`) are loaded on demand from `./llm/index.js`, so a
 * bot-only agent never loads an SDK. An unregistered provider is refused here, never played as another. Rejects with a PolicyConfigError (with a code) for an unknown or unavailable spec.
 */
export async function createPolicy(config: PolicyConfig): Promise<Policy> {
  const spec = config.spec.trim();
  const parsed = checkPolicySpec(spec);
  if (!parsed.ok) throw new PolicyConfigError(PolicyConfigCode.UnknownSpec, `unknown policy '${spec}'; expected one of: ${policySpecs().join(', ')}`);
  const s = parsed.spec;
  switch (s.kind) {
    case 'bot':
      if (s.name === undefined) return createBotPolicy(spec, undefined, botOptions(config.params));
      if (!(BOT_NAMES as readonly string[]).includes(s.name)) {
        throw new PolicyConfigError(PolicyConfigCode.UnknownSpec, `unknown bot '${s.name}' in '${spec}'; bots: ${BOT_NAMES.join(', ')}`);
      }
      return createBotPolicy(spec, s.name as BotName, botOptions(config.params));
    case 'human':
      return createHumanPolicy();
    case 'llm':
    case 'replay':
      return loadLlmPolicy({ ...config, spec });
  }
}

type LlmModule = { createLlmPolicy?: (config: PolicyConfig) => Policy | Promise<Policy> };

/**
 * The LLM policies' module, imported once: an agent process builds a policy for every seat of every
 * episode it plays, and a dynamic `import()` of a module already loaded still goes through the ESM loader
 * each time (part of the per-episode set-up in a warm ten-seat process's profile). A failed import is
 * not kept, so the next seat tries again and reports its own error.
 */
let llmModule: Promise<LlmModule> | undefined;
const loadLlmModule = () => (llmModule ??= import('./llm/index.js') as Promise<LlmModule>);

async function loadLlmPolicy(config: PolicyConfig): Promise<Policy> {
  // Loaded only when asked for (a literal specifier, so the supervisor's worker bundle keeps it as a lazy chunk).
  let mod: LlmModule;
  try {
    mod = await loadLlmModule();
  } catch (err) {
    llmModule = undefined;
    const code = (err as { code?: string }).code;
    if (code === 'ERR_MODULE_NOT_FOUND' && /policies[\\/]llm[\\/]index/.test(String((err as Error).message))) {
      throw new PolicyConfigError(PolicyConfigCode.Unavailable, `LLM policies are not available in this build (agent-node/policies/llm/index.ts is missing); cannot create '${config.spec}'`, { cause: err });
    }
    throw err;
  }
  if (typeof mod.createLlmPolicy !== 'function') {
    throw new PolicyConfigError(PolicyConfigCode.Unavailable, `agent-node/policies/llm/index.ts does not export createLlmPolicy; cannot create '${config.spec}'`);
  }
  return mod.createLlmPolicy(config);
}
