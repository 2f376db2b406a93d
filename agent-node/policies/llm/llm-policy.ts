import type { ActionType, PolicyConfig, ScriptRequest, TurnMeta, TurnRequest } from '../../../protocol/index.js';
import { createClient, createProviderClient, parseSpec, replaySource, splitParams, warmProvider, type LlmClient, type Tape } from '../../../llm/index.js';
import type { MoveResult, Policy, ScriptResult, SeatView } from '../../policy.js';
import { askWithRepair, newTally, type Tally } from './ladder.js';
import { ACTION_SHAPE, actionJsonSchema, parseAction } from './parse-action.js';
import { parseScript, SCRIPT_SHAPE, scriptJsonSchema } from './parse-script.js';
import { paperScriptMessages } from './paper-prompt.js';
import { seatPromptMessages } from './seat-prompt.js';
import { stripOwnNamePrefix } from './mixtral-prefix.js';
import { parseScriptText, SCRIPT_TEXT_SHAPE } from './parse-script-text.js';
import { scriptMessages } from './script-prompt.js';
import { fillTemplate, loadTemplates, type Templates } from './templates.js';

/** The paper's sampling temperature for agents and the script writer (Zhou et al., 2024). */
export const DEFAULT_TEMPERATURE = 0.7;

/** The seat id a script writer's cassette is filed under. */
export const SCRIPT_TAPE_SEAT = 'script';

/** Clients kept per (episode, seat); a pooled process plays many episodes, so old ones are dropped. */
const MAX_TAPES = 64;

/**
 * An LLM playing a seat (`act`) or writing a whole script (`writeScript`), for `openai:`, `mistral:`
 * and `replay:` specs. Prompts come from the templates and the seat's view only; replies go through
 * the repair ladder; every call is recorded to the seat's cassette when `cassetteDir` is set.
 */
export class LlmPolicy implements Policy {
  readonly spec: string;
  private readonly clients = new Map<string, LlmClient>();
  private readonly sampling: Record<string, unknown>;

  constructor(
    private readonly config: PolicyConfig,
    private readonly templates: Templates,
  ) {
    this.spec = config.spec;
    const provider = parseSpec(config.spec).provider;
    const { sampling } = splitParams(provider, config.params);
    this.sampling = { temperature: DEFAULT_TEMPERATURE, ...sampling };
  }

  async act(view: SeatView, request: TurnRequest, signal: AbortSignal): Promise<MoveResult> {
    const started = performance.now();
    const tally = newTally();
    let client: LlmClient | undefined;
    try {
      client = this.clientFor({ episodeId: view.welcome.episodeId, seat: view.welcome.seat });
      const allowed = request.actions as ActionType[];
      const messages = seatPromptMessages(this.templates, view, request);
      // Under `paper`, as SOTOPIA: the format instructions sit in the one user message and nothing is
      // constrained (no response_format); `parley` keeps the structured-output ladder.
      const paper = view.welcome.protocol?.name === 'paper';
      const result = await askWithRepair(
        client,
        { messages, ...(paper ? {} : { json: actionJsonSchema(allowed) }), params: this.sampling },
        (content) => parseAction(content, allowed),
        (problem) => fillTemplate(this.templates.reformat, { problem, shape: ACTION_SHAPE }),
        tally,
        signal,
      );
      const meta = this.meta(client, tally, started);
      if (!result.ok) return { ok: false, error: result.error, meta };
      // Under `paper`, what SOTOPIA's agent did to one model's output (agent-node/policies/llm/mixtral-prefix.ts).
      const action = view.welcome.protocol?.name === 'paper' ? stripOwnNamePrefix(result.value, client.model, view.welcome.self.profile.name) : result.value;
      return { ok: true, action, meta };
    } catch (err) {
      // A bug or I/O failure (e.g. an unreadable cassette): still a result, never a throw.
      return { ok: false, error: { code: 'policy/failed', message: String((err as Error)?.message ?? err).slice(0, 1000) }, meta: this.meta(client, tally, started) };
    }
  }

  async writeScript(request: ScriptRequest, signal: AbortSignal): Promise<ScriptResult> {
    const started = performance.now();
    const tally = newTally();
    let client: LlmClient | undefined;
    try {
      const episodeId = request.episodeId ?? `script-${request.background.scenario.id}`;
      client = this.clientFor({ episodeId, seat: SCRIPT_TAPE_SEAT });
      const seats = request.background.seats.map((s) => s.seat);
      const result = request.protocol?.name === 'paper' && request.protocol.scriptFormat === 'text'
        ? await askWithRepair(
          client,
          // The paper's script writer answers in free text: no JSON schema is asked for.
          { messages: paperScriptMessages(this.templates.script_paper, request), params: this.sampling },
          (content) => parseScriptText(content, request),
          (problem) => fillTemplate(this.templates.reformat_text, { problem, shape: SCRIPT_TEXT_SHAPE }),
          tally,
          signal,
        )
        : await askWithRepair(
          client,
          { messages: scriptMessages(this.templates.script, request), json: scriptJsonSchema(seats, request.limits.actions), params: this.sampling },
          (content) => parseScript(content, request),
          (problem) => fillTemplate(this.templates.reformat, { problem, shape: SCRIPT_SHAPE }),
          tally,
          signal,
        );
      const meta = this.meta(client, tally, started);
      return result.ok ? { ok: true, turns: result.value, meta } : { ok: false, error: result.error, meta };
    } catch (err) {
      return { ok: false, error: { code: 'policy/failed', message: String((err as Error)?.message ?? err).slice(0, 1000) }, meta: this.meta(client, tally, started) };
    }
  }

  async close(): Promise<void> {
    this.clients.clear();
  }

  async warm(): Promise<void> {
    await warmProvider(this.config);
  }

  private clientFor(tape: Tape): LlmClient {
    const key = `${tape.episodeId}\u0000${tape.seat}`;
    let client = this.clients.get(key);
    if (!client) {
      client = createClient(this.config, { tape });
      this.clients.set(key, client);
      if (this.clients.size > MAX_TAPES) this.clients.delete(this.clients.keys().next().value!);
    }
    return client;
  }

  private meta(client: LlmClient | undefined, tally: Tally, started: number): TurnMeta {
    const fallback = parseSpec(this.spec);
    const f = tally.fallbacks;
    const fell = f.rejected + f.jsonMode + f.prompt > 0 ? { fallbacks: { ...f } } : {};
    return {
      ...fell,
      policy: this.spec,
      provider: client?.provider ?? fallback.provider,
      model: client?.model ?? fallback.model,
      params: { ...this.sampling },
      latencyMs: Math.round(performance.now() - started),
      usage: { ...tally.usage },
      repairs: { lenient: tally.lenient, reformat: tally.reformat },
      retries: tally.retries,
    };
  }
}

/**
 * Builds the policy for an `openai:<model>`, `mistral:<model>` or `replay:<run-dir>` spec (or any LLM
 * spec with `replayDir`). Fails fast — bad spec, missing key (named), unreadable prompt template — so
 * the process reports it before taking a seat.
 */
export async function createLlmPolicy(config: PolicyConfig): Promise<Policy> {
  parseSpec(config.spec);
  if (!replaySource(config)) createProviderClient(config);
  return new LlmPolicy(config, loadTemplates(config.promptDir));
}
