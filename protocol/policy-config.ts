import { z } from 'zod';

/**
 * How an agent process should play a seat: the policy spec plus provider settings.
 * The supervisor hands it to local agent processes; a remote agent builds its own from its CLI flags.
 * Keys are never in here: each process reads its own provider key from its environment.
 *
 * spec grammar: `bot` | `bot:<name>` | `openai:<model>` | `mistral:<model>` | `replay:<run-dir>` | `human`
 */
export const PolicyConfig = z.object({
  spec: z.string().min(1),
  /** Provider base URL override (else OPENAI_BASE_URL / MISTRAL_BASE_URL). */
  baseURL: z.string().optional(),
  /** Name of the env variable holding the key (default OPENAI_API_KEY / MISTRAL_API_KEY). */
  apiKeyEnv: z.string().optional(),
  /** Sampling params passed to the provider (the paper: temperature 0.7 for agents). */
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
});
export type PolicyConfig = z.infer<typeof PolicyConfig>;
export type PolicyConfigInput = z.input<typeof PolicyConfig>;
