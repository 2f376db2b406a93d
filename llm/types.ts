import type { Usage } from '../protocol/index.js';

/**
 * The provider-neutral LLM client used by agent policies, the script writer, the judge and the
 * scenario generator. Implementations: OpenAI SDK (any OpenAI-compatible server), Mistral SDK, replay.
 */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatRequest {
  messages: ChatMessage[];
  /** Ask for JSON matching this schema (structured output where supported, else JSON mode). */
  json?: { name: string; schema: Record<string, unknown> };
  temperature?: number;
  maxTokens?: number;
  /** Other sampling params passed through (top_p, seed, …). */
  params?: Record<string, unknown>;
}

export interface ChatResponse {
  content: string;
  usage: Usage;
  /** Model name the server reported. */
  model: string;
  latencyMs: number;
  /** Retries spent (429, 5xx, timeouts) before this answer. */
  retries: number;
  /** Why generation stopped, as the server said (`stop`, `length`, …), when it said. */
  finishReason?: string;
  /** Set when the structured-output ladder left its configured rung for this call. */
  structured?: StructuredFallback;
}

/**
 * What the structured-output ladder did for one call: the rung that answered (`json_object` = JSON
 * mode, `prompt` = schema in the prompt, lenient parse), how many `response_format` rejections this
 * call met on the way, and whether the answer came from below the configured rung.
 */
export interface StructuredFallback {
  mode: 'json_schema' | 'json_object' | 'prompt';
  rejected: number;
  fallback: boolean;
}

export interface LlmClient {
  readonly provider: string;
  readonly model: string;
  chat(req: ChatRequest, signal?: AbortSignal): Promise<ChatResponse>;
  /**
   * Loads what this client's requests need without making one. Present only where loading is all a first
   * request adds (the light HTTP path): a pool's warm-up then makes no throw-away request (llm/warm.ts).
   */
  preload?(): Promise<void>;
  /** Releases what the client holds open (a cassette's file); it still answers after, at the old cost. */
  close?(): void;
}

/** `openai:gpt-4` → { provider: 'openai', model: 'gpt-4' }. */
export interface ModelSpec {
  /** A registered provider's name (llm/providers/), or `replay`. */
  provider: string;
  model: string;
  baseURL?: string;
  apiKeyEnv?: string;
  /** Sampling params and client settings, as in `PolicyConfig.params`. */
  params?: Record<string, unknown>;
}
