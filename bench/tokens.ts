import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RunPaths } from '../run-dir/index.js';
import { readCassette } from '../llm/index.js';
import type { Mode } from '../protocol/index.js';
import type { ProtocolName } from '../simulation/index.js';
import { RunConfig } from '../orchestrator/run-config.js';
import { runExperiment } from '../orchestrator/run/driver.js';
import { startFakeLlmServer } from '../testkit/fake-llm-server.js';
import { BENCH_KEY_ENV, benchModel, benchPolicy } from './llm-replies.js';
import { prefixReuse, promptText } from './prefix.js';
import { round } from './stats.js';

export interface ModeTokens {
  episodes: number;
  llmCallsPerEpisode: number;
  /** Prompt tokens per episode as the server counted them (the fake server: ~4 characters a token). */
  promptTokensPerEpisode: number;
  completionTokensPerEpisode: number;
  /**
   * Share of each prompt that is an unchanged prefix of the same seat's previous prompt, over the
   * prompts that have a previous one: `mean` per prompt, `weighted` by prompt length; `allPrompts`
   * counts every prompt (first ones reuse nothing) — the share of all prompt text a cache could serve.
   */
  prefixShare: { prompts: number; mean: number | null; weighted: number | null; allPrompts: number };
  /** Cached prompt tokens the server reported / prompt tokens (its own prefix cache over recent prompts). */
  serverCachedShare: number;
}

/** Per protocol, per mode: `parley` (Parley's cache-friendly order) and `paper` (SOTOPIA's order, unchanged). */
export type TokensByProtocol = Record<ProtocolName, Partial<Record<Mode, ModeTokens>>>;

/**
 * Prompt tokens per episode by protocol and mode, and how much of each prompt provider prompt caching
 * could reuse, measured from the cassettes of a real run (every seat an `openai:` policy on the fake
 * server, every move a `speak`, so live episodes run their full `turns`). The script mode makes one call
 * an episode (nothing to reuse), so under `paper` only the turn-by-turn modes are run.
 */
export async function tokensByProtocol(o: { episodesPerMode: number; turns: number }): Promise<TokensByProtocol> {
  return {
    parley: await tokensByMode({ ...o, protocol: 'parley', modes: ['script', 'agents', 'mindreaders'] }),
    paper: await tokensByMode({ ...o, protocol: 'paper', modes: ['agents', 'mindreaders'] }),
  };
}

async function tokensByMode(o: { episodesPerMode: number; turns: number; protocol: ProtocolName; modes: Mode[] }): Promise<Partial<Record<Mode, ModeTokens>>> {
  await using server = await startFakeLlmServer({ default: benchModel(0) });
  const out = mkdtempSync(join(tmpdir(), 'parley-bench-tokens-'));
  const saved = process.env[BENCH_KEY_ENV];
  process.env[BENCH_KEY_ENV] = 'bench';
  try {
    const result: Partial<Record<Mode, ModeTokens>> = {};
    for (const mode of o.modes) {
      const dir = join(out, mode);
      const policy = benchPolicy(server.openaiBaseURL);
      const run = await runExperiment(
        RunConfig.parse({ scenarios: 'builtin', protocol: o.protocol, modes: [mode], out: dir, limit: o.episodesPerMode, concurrency: 4, maxTurns: o.turns, agents: [policy], scriptWriter: policy }),
        { log: () => {}, hosting: 'local' },
        { progressIntervalMs: 3_600_000 },
      );
      let calls = 0;
      let prompt = 0;
      let completion = 0;
      let cached = 0;
      const shares: number[] = [];
      let reusedLater = 0;
      let lengthLater = 0;
      let reusedAll = 0;
      let lengthAll = 0;
      const cassettes = new RunPaths(dir).cassettesDir;
      for (const episode of readdirSync(cassettes)) {
        for (const file of readdirSync(join(cassettes, episode))) {
          const entries = readCassette(join(cassettes, episode, file)) ?? [];
          calls += entries.length;
          for (const e of entries) {
            prompt += e.response?.usage.prompt ?? 0;
            completion += e.response?.usage.completion ?? 0;
            cached += e.response?.usage.cached ?? 0;
          }
          prefixReuse(entries.map((e) => promptText(e.request.messages))).forEach((p, i) => {
            reusedAll += p.reused;
            lengthAll += p.length;
            if (i === 0) return;
            shares.push(p.reused / p.length);
            reusedLater += p.reused;
            lengthLater += p.length;
          });
        }
      }
      const episodes = run.ran.length;
      result[mode] = {
        episodes,
        llmCallsPerEpisode: round(calls / episodes, 2),
        promptTokensPerEpisode: Math.round(prompt / episodes),
        completionTokensPerEpisode: Math.round(completion / episodes),
        prefixShare: {
          prompts: shares.length,
          mean: shares.length ? round(shares.reduce((a, b) => a + b, 0) / shares.length, 3) : null,
          weighted: lengthLater ? round(reusedLater / lengthLater, 3) : null,
          allPrompts: round(reusedAll / Math.max(1, lengthAll), 3),
        },
        serverCachedShare: round(cached / Math.max(1, prompt), 3),
      };
    }
    return result;
  } finally {
    if (saved === undefined) delete process.env[BENCH_KEY_ENV];
    else process.env[BENCH_KEY_ENV] = saved;
    rmSync(out, { recursive: true, force: true });
  }
}
