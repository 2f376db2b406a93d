import type { ChatMessage, ChatRequest, ChatResponse, LlmClient } from '../../llm/types.js';
import type { BatchAnswer } from './batch-results.js';
import type { BatchJudgeRequest } from './batch-requests.js';

/**
 * The judge client of a collected batch (`eval --batch`, `compare --batch`): a request whose messages are those of a batched request is
 * answered, once, with that request's batch reply; anything else — a request the batch failed or never
 * answered, the judge's second attempt after an unreadable or out-of-range reply, a paper-view reformat
 * request — goes to the live client. So batch replies go through exactly the same parse, range check,
 * retry and reformat rules as live ones (judge/judge.ts, compare/naturalness.ts), and the records come out the same.
 */
export class BatchAnsweredClient implements LlmClient {
  readonly provider: string;
  readonly model: string;
  private readonly byMessages = new Map<string, string[]>();
  private readonly replies = new Map<string, Extract<BatchAnswer, { ok: true }>>();
  /** Requests answered from the batch / sent live, and their token usage (priced differently: batch at half). */
  answered = 0;
  live = 0;
  readonly batchUsage = { prompt: 0, completion: 0 };
  readonly liveUsage = { prompt: 0, completion: 0 };

  constructor(
    private readonly liveClient: LlmClient,
    /** The batched requests by custom_id (the judge's, or `parley compare`'s naturalness requests). */
    requests: readonly Pick<BatchJudgeRequest, 'customId' | 'request'>[],
    answers: ReadonlyMap<string, BatchAnswer>,
    /** Applied to a batch reply's text (the `prompt` rung's lenient JSON extraction). */
    private readonly transform: (content: string) => string = (c) => c,
  ) {
    this.provider = liveClient.provider;
    this.model = liveClient.model;
    for (const r of requests) {
      const a = answers.get(r.customId);
      if (!a?.ok) continue;
      this.replies.set(r.customId, a);
      const key = keyOf(r.request.messages);
      this.byMessages.set(key, [...(this.byMessages.get(key) ?? []), r.customId]);
    }
  }

  /**
   * The client for judging one episode: it answers only from that episode's own requests (custom_id
   * `<episode>#<call>`), so two episodes whose requests read the same (repeats with identical dialogues)
   * each get their own verdict, whatever order they are judged in.
   */
  forEpisode(episodeId: string): LlmClient {
    return this.forPrefix(`${episodeId}#`);
  }

  /**
   * The client for one unit of work given its requests' custom_ids (a compared pair's, compare --batch):
   * it answers only from those, so two pairs whose questions read the same keep their own verdicts.
   */
  forIds(ids: ReadonlySet<string>): LlmClient {
    return { provider: this.provider, model: this.model, chat: (req, signal) => this.answer(req, signal, (id) => ids.has(id)) };
  }

  private forPrefix(prefix: string): LlmClient {
    return { provider: this.provider, model: this.model, chat: (req, signal) => this.answer(req, signal, (id) => id.startsWith(prefix)) };
  }

  chat(req: ChatRequest, signal?: AbortSignal): Promise<ChatResponse> {
    return this.answer(req, signal, () => true);
  }

  private async answer(req: ChatRequest, signal: AbortSignal | undefined, mine: (customId: string) => boolean): Promise<ChatResponse> {
    const ids = this.byMessages.get(keyOf(req.messages));
    const at = ids?.findIndex(mine) ?? -1;
    const id = at >= 0 ? ids!.splice(at, 1)[0] : undefined;
    const answer = id === undefined ? undefined : this.replies.get(id);
    if (!answer) {
      this.live++;
      const res = await this.liveClient.chat(req, signal);
      this.liveUsage.prompt += res.usage.prompt;
      this.liveUsage.completion += res.usage.completion;
      return res;
    }
    this.answered++;
    this.batchUsage.prompt += answer.usage.prompt;
    this.batchUsage.completion += answer.usage.completion;
    return { content: this.transform(answer.content), usage: answer.usage, model: answer.model ?? this.model, latencyMs: 0, retries: 0 };
  }
}

const keyOf = (messages: readonly ChatMessage[]) => JSON.stringify(messages.map((m) => [m.role, m.content]));
