import * as z from 'zod';
import { llmProviderOf } from './policy-spec.js';

/**
 * What a fine-tuned model was trained on, as an experiment file records it (`parley finetune status`
 * prints it with the model); the simulation card names it. Descriptive only: it changes no behaviour.
 */
export const TrainingData = z
  .object({
    /** The training file as exported (`parley export --format openai-chat|mistral-chat`). */
    file: z.string().min(1),
    /** The provider's id of the uploaded file, the fine-tuning job, and the base model. */
    fileId: z.string().optional(),
    validationFile: z.string().optional(),
    job: z.string().optional(),
    base: z.string().optional(),
    /** Free text: which runs and filters it came from (e.g. `runs/script --mode script --view agents --min goal=7`). */
    from: z.string().optional(),
  })
  .strict();
export type TrainingData = z.infer<typeof TrainingData>;

/**
 * The model an LLM generator's one reformat request goes to (an unreadable reply is shown to it once).
 * SOTOPIA's code sent that request to gpt-3.5-turbo whatever the generator. Unset: under `--protocol
 * paper`, `openai:gpt-3.5-turbo` for an `openai:` seat (its endpoint and key) and the seat's own model
 * otherwise; under `parley`, the seat's own model (agent-node/policies/llm/reformat-client.ts).
 * Its own `baseURL` / `apiKeyEnv` when it is served elsewhere (e.g. OpenAI for a Mixtral seat on Together).
 */
export const ReformatConfig = z
  .object({
    spec: z.string().min(1).refine((s) => llmProviderOf(s) !== undefined, 'must be an LLM spec: <provider>:<model>'),
    baseURL: z.string().optional(),
    apiKeyEnv: z.string().optional(),
    /** Sampling params for the reformat request (default: temperature 0.7, SOTOPIA's). */
    params: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();
export type ReformatConfig = z.infer<typeof ReformatConfig>;

/**
 * How an agent process should play a seat: the policy spec plus provider settings.
 * The supervisor hands it to local agent processes; a remote agent builds its own from its CLI flags.
 * Keys are never in here: each process reads its own provider key from its environment.
 *
 * spec grammar (parsed only by `parsePolicySpec`, protocol/policy-spec.ts): `bot` | `bot:<name>` | `<provider>:<model>` (a provider registered in llm/providers/) | `replay:<run-dir>` | `human`
 */
export const PolicyConfig = z.object({
  spec: z.string().min(1),
  /** Provider base URL override (else the provider's base-URL variable, e.g. OPENAI_BASE_URL). */
  baseURL: z.string().optional(),
  /** Name of the env variable holding the key (default: the provider's, e.g. OPENAI_API_KEY). */
  apiKeyEnv: z.string().optional(),
  /** Sampling params passed to the provider; a temperature here wins over the protocol's (`--agent-temperature`) and the default 0.7. */
  params: z.record(z.string(), z.unknown()).default({}),
  /** Directory where the process records LLM requests/responses (cassettes). */
  cassetteDir: z.string().optional(),
  /** Replay: answer every LLM call from the cassettes recorded under this directory, no network. */
  replayDir: z.string().optional(),
  /** Directory of prompt templates overriding the built-in ones. */
  promptDir: z.string().optional(),
  /**
   * Set by the supervisor when it re-establishes a seat on a fresh process after a crash: the seat's
   * cassette is continued (recording) or picked up where the episode is (replay), not started afresh.
   */
  resume: z.boolean().optional(),
  /** For a fine-tuned model: what it was trained on (shown on the simulation card). */
  trainingData: TrainingData.optional(),
  /** Where this generator's one reformat request goes (`--reformat-model`); unset: see `ReformatConfig`. */
  reformat: ReformatConfig.optional(),
});
export type PolicyConfig = z.infer<typeof PolicyConfig>;
export type PolicyConfigInput = z.input<typeof PolicyConfig>;
