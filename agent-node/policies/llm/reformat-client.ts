import { createClient, parseLlmSpec, parseSpec, replaySource, splitParams, type LlmClient } from '../../../llm/index.js';
import { policyCassettes, type Tape } from '../../../run-dir/cassette-layout.js';
import type { PolicyConfig, ReformatConfig, SeatCapabilities } from '../../../protocol/index.js';
import { sotopiaReformatFor } from '../../../simulation/index.js';

/** The sampling temperature of SOTOPIA's reformat request (its `obtain_chain` default). */
export const REFORMAT_TEMPERATURE = 0.7;

/** The cassette a generator's reformat requests are recorded to: its own, so replay finds them apart. */
export function reformatTape(tape: Tape): Tape {
  return { episodeId: tape.episodeId, seat: `${tape.seat}.reformat` };
}

/**
 * The reformat model a generator uses: its own setting, else the route its seat was told
 * (`SeatCapabilities.reformat`) — `sotopia`: SOTOPIA's model for a seat whose provider serves it (its endpoint and key,
 * as `parley eval` does for the judge) and the seat's own model otherwise; `continue` gives null:
 * Parley's way (the seat's own client, the conversation continued).
 */
export function reformatTarget(config: PolicyConfig, route: SeatCapabilities['reformat']): ReformatConfig | 'own' | null {
  if (config.reformat) return config.reformat;
  if (route === 'continue') return null;
  if (replaySource(config)) return 'own';
  const sotopia = sotopiaReformatFor(parseLlmSpec(config.spec).provider);
  return sotopia ? { spec: sotopia } : 'own';
}

/**
 * The client a generator's reformat request goes to, and the sampling sent with it. A replayed seat
 * replays its reformat cassette; a model on the seat's provider inherits the seat's endpoint and key
 * unless it names its own; a recording seat records it to `reformatTape`.
 */
export function reformatClient(config: PolicyConfig, target: ReformatConfig | 'own', tape: Tape, seatSampling: Record<string, unknown>): { client: LlmClient; sampling: Record<string, unknown> } {
  const own = target === 'own' || replaySource(config) !== undefined;
  if (own) return { client: builtOnFirstUse(() => createClient(config, { cassettes: policyCassettes(config, reformatTape(tape)) }), replaySource(config) ? undefined : parseSpec(config.spec)), sampling: seatSampling };
  const provider = parseSpec(target.spec).provider;
  const sameProvider = provider === parseSpec(config.spec).provider;
  const baseURL = target.baseURL ?? (sameProvider ? config.baseURL : undefined);
  const apiKeyEnv = target.apiKeyEnv ?? (sameProvider ? config.apiKeyEnv : undefined);
  const params = target.params ?? {};
  const reformatConfig = {
    spec: target.spec,
    params,
    ...(baseURL ? { baseURL } : {}),
    ...(apiKeyEnv ? { apiKeyEnv } : {}),
    ...(config.cassetteDir ? { cassetteDir: config.cassetteDir } : {}),
    ...(config.resume ? { resume: config.resume } : {}),
  };
  const client = builtOnFirstUse(() => createClient(reformatConfig, { cassettes: policyCassettes(reformatConfig, reformatTape(tape)) }), parseSpec(target.spec));
  return { client, sampling: { temperature: REFORMAT_TEMPERATURE, ...splitParams(provider, params).sampling } };
}

/**
 * A client built when first asked (a call, or its provider/model for provenance): most episodes never
 * need a reformat, and building one opens its cassette file and an SDK client — under `paper`, for every
 * seat of every episode. A replayed reformat cassette is read at that moment, as it was at creation.
 */
function builtOnFirstUse(make: () => LlmClient, named?: { provider: string; model: string }): LlmClient {
  let real: LlmClient | undefined;
  let failure: unknown;
  // A client that cannot be built (no key, an unwritable cassette) fails the same way on every use.
  const get = () => {
    if (failure !== undefined) throw failure;
    try {
      return (real ??= make());
    } catch (err) {
      failure = err;
      throw err;
    }
  };
  return {
    // Provenance needs no client when the spec names the model (a replayed one reads it from its cassette).
    get provider() {
      return real?.provider ?? named?.provider ?? get().provider;
    },
    get model() {
      return real?.model ?? named?.model ?? get().model;
    },
    chat: (req, signal) => get().chat(req, signal),
    // Never built: nothing to release (and nothing is built to release it).
    close: () => real?.close?.(),
  };
}
