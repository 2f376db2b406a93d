/**
 * LLM policies for agent-node: `openai:<model>`, `mistral:<model>`, `replay:<run-dir>`.
 * The policy registry imports this module lazily and calls `createLlmPolicy(config)`.
 */
export { createLlmPolicy, LlmPolicy, DEFAULT_TEMPERATURE, SCRIPT_TAPE_SEAT } from './llm-policy.js';
export { loadTemplates, parseTemplate, fillTemplate, BUILTIN_PROMPT_DIR, TEMPLATE_PLACEHOLDERS } from './templates.js';
export { agentMessages, agentValues } from './agent-prompt.js';
export { scriptMessages, scriptValues } from './script-prompt.js';
export { parseAction, actionJsonSchema } from './parse-action.js';
export { parseScript, scriptJsonSchema } from './parse-script.js';
export { UNPARSABLE } from './ladder.js';
