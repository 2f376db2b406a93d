import { ErrorCode, type ActionType, type PolicyConfig, type ReformatConfig, type ScriptRequest, type SeatCapabilities, type TurnMeta, type TurnRequest } from '../../../protocol/index.js';
import { seatCapabilities } from '../../../simulation/index.js';
import { createClient, createProviderClient, parseSpec, replaySource, splitParams, warmProvider, type ChatMessage, type ChatRequest, type LlmClient } from '../../../llm/index.js';
import { policyCassettes, type Tape } from '../../../run-dir/cassette-layout.js';
import type { MoveResult, Policy, ScriptResult, SeatView } from '../../policy.js';
import { askWithRepair, newTally, type ReformatRoute, type Tally } from './ladder.js';
import { ACTION_SHAPE, actionJsonSchema, parseAction } from './parse-action.js';
import { sotopiaAction } from './parse-action-sotopia.js';
import { parseScript, SCRIPT_SHAPE, scriptJsonSchema } from './parse-script.js';
import { paperReformatMessages, paperScriptMessages, paperScriptReformatMessages } from './paper-prompt.js';
import { seatAddressees, seatPromptMessages } from './seat-prompt.js';
import { stripOwnNamePrefix } from './mixtral-prefix.js';
import { parseScriptText } from './parse-script-text.js';
import { reformatClient, reformatTarget } from './reformat-client.js';
import { scriptMessages } from './script-prompt.js';
import { fillTemplate, loadTemplates, type Templates } from './templates.js';

/**
 * The sampling temperature of a seat whose policy and protocol set none, and always of the script writer
 * (SOTOPIA's `agenerate_script` and the paper, 0.7). Under `paper` the welcome tells agents their own
 * (`protocol.agentTemperature`: SOTOPIA's code samples them at 1.0).
 */
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
  private provider: LlmClient | undefined;
  private readonly reformatClients = new Map<string, { client: LlmClient; sampling: Record<string, unknown> }>();
  private readonly sampling: Record<string, unknown>;
  /** Whether the policy's params name a temperature (it then wins over the protocol's). */
  private readonly explicitTemperature: boolean;
  /** An agent's sampling at the temperature its protocol told it, made once per temperature. */
  private readonly toldSampling = new Map<number, Record<string, unknown>>();

  constructor(
    private readonly config: PolicyConfig,
    private readonly templates: Templates,
    providerClient?: LlmClient,
  ) {
    this.provider = providerClient;
    this.spec = config.spec;
    const provider = parseSpec(config.spec).provider;
    const { sampling } = splitParams(provider, config.params);
    this.sampling = { temperature: DEFAULT_TEMPERATURE, ...sampling };
    this.explicitTemperature = sampling['temperature'] !== undefined;
  }

  /** An agent's or mindreader's sampling: the protocol's temperature when its policy names none. */
  private agentSampling(told: number | undefined): Record<string, unknown> {
    if (told === undefined || this.explicitTemperature) return this.sampling;
    let sampling = this.toldSampling.get(told);
    if (!sampling) this.toldSampling.set(told, (sampling = { ...this.sampling, temperature: told }));
    return sampling;
  }

  async act(view: SeatView, request: TurnRequest, signal: AbortSignal): Promise<MoveResult> {
    const started = performance.now();
    const tally = newTally();
    const sampling = this.agentSampling(view.welcome.protocol?.agentTemperature);
    let client: LlmClient | undefined;
    try {
      const tape = { episodeId: view.welcome.episodeId, seat: view.welcome.seat };
      client = this.clientFor(tape);
      const allowed = request.actions as ActionType[];
      const messages = seatPromptMessages(this.templates, view, request);
      // A group seat may address a move to some of the others only (`to`, private-moves.ts); null for two seats.
      const addressees = seatAddressees(view, request);
      // What the seat was told (simulation/): with the format `in-prompt`, as SOTOPIA, the instructions sit
      // in the one user message and nothing is constrained (no response_format); `schema` keeps the
      // structured-output ladder.
      const caps = seatCapabilities(view.welcome.protocol);
      const inPrompt = caps.replyFormat === 'in-prompt';
      const ask: ChatRequest = { messages, ...(inPrompt ? {} : { json: actionJsonSchema(allowed, addressees) }), params: sampling };
      const parleyReformat = (problem: string) => fillTemplate(this.templates.reformat, { problem, shape: ACTION_SHAPE });
      const route = this.reformatRoute(caps.reformat, tape, ask, parleyReformat, inPrompt ? (bad) => paperReformatMessages(this.templates.reformat_paper, bad, allowed) : null);
      // As SOTOPIA's parser when told so (two seats: SOTOPIA's moves had no recipients), else Parley's lenient reading.
      const asSotopia = inPrompt && addressees === null && view.welcome.protocol?.replyReading === 'code';
      const read = asSotopia ? (content: string) => sotopiaAction(content, allowed) : (content: string) => parseAction(content, allowed, addressees);
      const result = await askWithRepair(client, ask, read, parleyReformat, tally, signal, route);
      const meta = this.meta(client, tally, started, route, sampling);
      if (!result.ok) return { ok: false, error: result.error, meta };
      // When told to, what SOTOPIA's agent did to one model's output (agent-node/policies/llm/mixtral-prefix.ts).
      const action = caps.stripOwnName ? stripOwnNamePrefix(result.value, client.model, view.welcome.self.profile.name) : result.value;
      return { ok: true, action, meta };
    } catch (err) {
      // A bug or I/O failure (e.g. an unreadable cassette): still a result, never a throw.
      return { ok: false, error: { code: ErrorCode.PolicyFailed, message: String((err as Error)?.message ?? err).slice(0, 1000) }, meta: this.meta(client, tally, started, undefined, sampling) };
    }
  }

  async writeScript(request: ScriptRequest, signal: AbortSignal): Promise<ScriptResult> {
    const started = performance.now();
    const tally = newTally();
    let client: LlmClient | undefined;
    try {
      const episodeId = request.episodeId ?? `script-${request.background.scenario.id}`;
      const tape = { episodeId, seat: SCRIPT_TAPE_SEAT };
      client = this.clientFor(tape);
      const seats = request.background.seats.map((s) => s.seat);
      const caps = seatCapabilities(request.protocol);
      const parleyReformat = (problem: string) => fillTemplate(this.templates.reformat, { problem, shape: SCRIPT_SHAPE });
      let result;
      let route: ReformatRoute | undefined;
      if (caps.prompts === 'sotopia' && request.protocol?.scriptFormat === 'text') {
        // The paper's script writer answers in free text: no JSON schema is asked for.
        const ask: ChatRequest = { messages: paperScriptMessages(this.templates.script_paper, request), params: this.sampling };
        route = this.reformatRoute(caps.reformat, tape, ask, parleyReformat, (bad) => paperScriptReformatMessages(this.templates.reformat_script_paper, bad, request));
        result = await askWithRepair(client, ask, (content) => parseScriptText(content, request), parleyReformat, tally, signal, route);
      } else {
        const ask: ChatRequest = { messages: scriptMessages(this.templates.script, request), json: scriptJsonSchema(seats, request.limits.actions), params: this.sampling };
        route = this.reformatRoute(caps.reformat, tape, ask, parleyReformat, null);
        result = await askWithRepair(client, ask, (content) => parseScript(content, request), parleyReformat, tally, signal, route);
      }
      const meta = this.meta(client, tally, started, route);
      return result.ok ? { ok: true, turns: result.value, meta } : { ok: false, error: result.error, meta };
    } catch (err) {
      return { ok: false, error: { code: ErrorCode.PolicyFailed, message: String((err as Error)?.message ?? err).slice(0, 1000) }, meta: this.meta(client, tally, started) };
    }
  }

  async close(): Promise<void> {
    for (const client of this.clients.values()) client.close?.();
    for (const { client } of this.reformatClients.values()) client.close?.();
    this.clients.clear();
    this.reformatClients.clear();
  }

  async warm(): Promise<void> {
    await warmProvider(this.config);
  }

  /**
   * Where this generator's one reformat request goes (reformat-client.ts), and in which shape: `fresh`
   * builds SOTOPIA's stand-alone request from the unreadable text; without it the request is Parley's
   * (the conversation continued with the reply and the problem). Undefined: Parley's way on the seat's
   * own client, today's behaviour.
   */
  private reformatRoute(told: SeatCapabilities['reformat'], tape: Tape, ask: ChatRequest, parleyMessages: (problem: string) => ChatMessage[], fresh: ((unreadable: string) => ChatMessage[]) | null): ReformatRoute | undefined {
    const target = reformatTarget(this.config, told);
    if (!target) return undefined;
    const { client, sampling } = this.reformatClientFor(tape, target);
    return {
      client,
      request: (unreadable, problem) => fresh
        ? { messages: fresh(unreadable), params: sampling }
        : { ...ask, messages: [...ask.messages, { role: 'assistant', content: unreadable }, ...parleyMessages(problem)], params: sampling },
    };
  }

  private reformatClientFor(tape: Tape, target: ReformatConfig | 'own'): { client: LlmClient; sampling: Record<string, unknown> } {
    const key = `${tape.episodeId}\u0000${tape.seat}`;
    let entry = this.reformatClients.get(key);
    if (!entry) {
      entry = reformatClient(this.config, target, tape, this.sampling);
      this.reformatClients.set(key, entry);
      if (this.reformatClients.size > MAX_TAPES) this.dropOldest(this.reformatClients, (e) => e.client);
    }
    return entry;
  }

  private clientFor(tape: Tape): LlmClient {
    const key = `${tape.episodeId}\u0000${tape.seat}`;
    let client = this.clients.get(key);
    if (!client) {
      // One provider client for every episode this policy plays; each episode records to its own cassette.
      if (!replaySource(this.config)) this.provider ??= createProviderClient(this.config);
      client = createClient(this.config, { cassettes: policyCassettes(this.config, tape), ...(this.provider ? { provider: this.provider } : {}) });
      this.clients.set(key, client);
      if (this.clients.size > MAX_TAPES) this.dropOldest(this.clients, (c) => c);
    }
    return client;
  }

  /** Drops the oldest episode's client, and the file it holds open. */
  private dropOldest<T>(map: Map<string, T>, clientOf: (entry: T) => LlmClient): void {
    const [key, entry] = map.entries().next().value!;
    clientOf(entry).close?.();
    map.delete(key);
  }

  private meta(client: LlmClient | undefined, tally: Tally, started: number, route?: ReformatRoute, sampling = this.sampling): TurnMeta {
    // The spec's provider and model only when no client was made (parsed on every turn, it showed in profiles).
    const { provider, model } = client ?? parseSpec(this.spec);
    const f = tally.fallbacks;
    const fell = f.rejected + f.jsonMode + f.prompt > 0 ? { fallbacks: { ...f } } : {};
    // Which model was asked to reformat, when one was (provenance: it may not be the seat's model).
    const reformatted = route && tally.reformat > 0 ? { reformatModel: `${route.client.provider}:${route.client.model}` } : {};
    return {
      ...fell,
      ...reformatted,
      policy: this.spec,
      provider,
      model,
      params: { ...sampling },
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
  // The client made to check the key is the one the policy plays with: building it again at the seat's
  // first turn was part of each episode's set-up in an agent process (bench/agent-profile.md).
  const provider = replaySource(config) ? undefined : createProviderClient(config);
  return new LlmPolicy(config, loadTemplates(config.promptDir), provider);
}
