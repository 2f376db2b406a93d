import { ErrorCode } from './codes.js';

/**
 * The one parser of policy specs (`--agent1`, an experiment file's `spec`, a queue job's policies).
 * Pure, so agent-node, orchestrator, queue and cli all share it: adding an LLM provider is one edit
 * (append it to LLM_PROVIDER_NAMES); every consumer switches on the parsed `kind`, never on a prefix.
 *
 * Grammar: `bot` | `bot:<name>` | `human` | `<provider>:<model>` | `replay:<run-dir>`.
 * Which bot names exist is agent-node's business (it checks `name`); here a name is `[\w.-]+`.
 */

/** LLM providers a seat can be played by, as spelt before the colon. */
export const LLM_PROVIDER_NAMES = ['openai', 'mistral'] as const;
export type LlmProviderName = (typeof LLM_PROVIDER_NAMES)[number];

/** A parsed policy spec. `model` may itself contain colons (`openai:ft:gpt-3.5:org`). */
export type PolicySpec =
  | { kind: 'bot'; name?: string }
  | { kind: 'human' }
  | { kind: 'llm'; provider: LlmProviderName; model: string }
  | { kind: 'replay'; dir: string };

/** The spec forms, for `--help` and error messages. */
export const POLICY_SPEC_FORMS: readonly string[] = ['bot', 'bot:<name>', ...LLM_PROVIDER_NAMES.map((p) => `${p}:<model>`), 'replay:<run-dir>', 'human'];

/** Result of parsing: the spec, or why it is not one (code `policy/unknown_spec`). */
export type PolicySpecResult = { ok: true; spec: PolicySpec } | { ok: false; code: typeof ErrorCode.UnknownPolicy; message: string };

const BOT_NAME = /^[\w.-]+$/;
const isProvider = (p: string): p is LlmProviderName => (LLM_PROVIDER_NAMES as readonly string[]).includes(p);

/** Parses a policy spec string (surrounding whitespace ignored). Never throws. */
export function parsePolicySpec(raw: string): PolicySpecResult {
  const text = raw.trim();
  const fail = (why: string): PolicySpecResult => ({
    ok: false,
    code: ErrorCode.UnknownPolicy,
    message: `'${raw}' is not a policy spec: ${why} (expected ${POLICY_SPEC_FORMS.join(', ')})`,
  });
  if (text === 'bot') return { ok: true, spec: { kind: 'bot' } };
  if (text === 'human') return { ok: true, spec: { kind: 'human' } };
  const colon = text.indexOf(':');
  if (colon < 0) return fail('unknown form');
  const head = text.slice(0, colon);
  const rest = text.slice(colon + 1).trim();
  if (!rest || /\s/.test(rest)) return fail(rest ? 'whitespace in its argument' : `nothing after '${head}:'`);
  if (head === 'bot') return BOT_NAME.test(rest) ? { ok: true, spec: { kind: 'bot', name: rest } } : fail('bad bot name');
  if (head === 'replay') return { ok: true, spec: { kind: 'replay', dir: rest } };
  if (isProvider(head)) return { ok: true, spec: { kind: 'llm', provider: head, model: rest } };
  return fail(`unknown provider '${head}'`);
}

/** The parsed spec, or undefined when it is not one (for callers that validated it already at the edge). */
export const policySpecOf = (raw: string): PolicySpec | undefined => {
  const r = parsePolicySpec(raw);
  return r.ok ? r.spec : undefined;
};

/** Kind of a spec string, or undefined when it is not a spec. */
export const policyKind = (raw: string): PolicySpec['kind'] | undefined => policySpecOf(raw)?.kind;

/** The provider whose key and sampling checks apply: an LLM spec's provider, else undefined. */
export const llmProviderOf = (raw: string): LlmProviderName | undefined => {
  const s = policySpecOf(raw);
  return s?.kind === 'llm' ? s.provider : undefined;
};
