import { ErrorCode } from './codes.js';

/**
 * The one grammar of policy specs (`--agent1`, an experiment file's `spec`, a queue job's policies).
 * Pure, so agent-node, orchestrator, queue and cli all share it; every consumer switches on the parsed
 * `kind`, never on a prefix.
 *
 * Grammar: `bot` | `bot:<name>` | `human` | `<provider>:<model>` | `replay:<run-dir>`.
 * Which bot names exist is agent-node's business (it checks `name`); here a name is `[\w.-]+`. Which
 * providers exist is llm/'s (its registry, llm/providers/): here a provider is a name of the form
 * `[a-z][a-z0-9-]*`, and the registry refuses one it does not know wherever a spec enters
 * (llm/providers/policy-spec.ts), so no spec is ever played as another provider.
 */

/** The name before the colon of an LLM spec; reserved words are the other kinds. */
export type LlmProviderName = string;

/** A parsed policy spec. `model` may itself contain colons (`openai:ft:gpt-3.5:org`). */
export type PolicySpec =
  | { kind: 'bot'; name?: string }
  | { kind: 'human' }
  | { kind: 'llm'; provider: LlmProviderName; model: string }
  | { kind: 'replay'; dir: string };

/** The spec forms (`<provider>` stands for a registered provider's name), for `--help` and error messages. */
export const POLICY_SPEC_FORMS: readonly string[] = ['bot', 'bot:<name>', '<provider>:<model>', 'replay:<run-dir>', 'human'];

/** Result of parsing: the spec, or why it is not one (code `policy/unknown_spec`). */
export type PolicySpecResult = { ok: true; spec: PolicySpec } | { ok: false; code: typeof ErrorCode.UnknownPolicy; message: string };

const BOT_NAME = /^[\w.-]+$/;
const PROVIDER_NAME = /^[a-z][a-z0-9-]{0,31}$/;

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
  if (PROVIDER_NAME.test(head)) return { ok: true, spec: { kind: 'llm', provider: head, model: rest } };
  return fail(`'${head}' is not a provider name`);
}

/** The parsed spec, or undefined when it is not one (for callers that validated it already at the edge). */
export const policySpecOf = (raw: string): PolicySpec | undefined => {
  const r = parsePolicySpec(raw);
  return r.ok ? r.spec : undefined;
};

/** Kind of a spec string, or undefined when it is not a spec. */
export const policyKind = (raw: string): PolicySpec['kind'] | undefined => policySpecOf(raw)?.kind;

/** The provider name of an LLM spec (registered or not: llm/providers/ decides), else undefined. */
export const llmProviderOf = (raw: string): LlmProviderName | undefined => {
  const s = policySpecOf(raw);
  return s?.kind === 'llm' ? s.provider : undefined;
};

/** A `<provider>:<model>` reference (a judge, a reformat model, a price key) parsed once: the LLM spec's parts, else undefined. */
export const modelRefOf = (raw: string): { provider: LlmProviderName; model: string } | undefined => {
  const s = policySpecOf(raw);
  return s?.kind === 'llm' ? { provider: s.provider, model: s.model } : undefined;
};

/**
 * A `provider:model` key Parley wrote itself (run.json's usage keys, price keys), split at its first
 * colon: unlike a spec, any provider word (`unknown`, `replay`) and any model text are kept as written.
 */
export const splitModelKey = (key: string): { provider: string; model: string } => {
  const colon = key.indexOf(':');
  return colon < 0 ? { provider: key, model: '' } : { provider: key.slice(0, colon), model: key.slice(colon + 1) };
};
