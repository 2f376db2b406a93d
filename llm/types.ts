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
}

export interface LlmClient {
  readonly provider: string;
  readonly model: string;
  chat(req: ChatRequest, signal?: AbortSignal): Promise<ChatResponse>;
}

/** `openai:gpt-4` → { provider: 'openai', model: 'gpt-4' }. */
export interface ModelSpec {
  provider: 'openai' | 'mistral' | 'replay';
  model: string;
  baseURL?: string;
  apiKeyEnv?: string;
  /** Sampling params and client settings, as in `PolicyConfig.params`. */
  params?: Record<string, unknown>;
}
