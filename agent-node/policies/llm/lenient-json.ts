/** Lenient JSON extraction lives in the LLM layer (the structured-output ladder uses it too). */
export { lenientJson, strictJson, type Extracted } from '../../../llm/lenient-json.js';
