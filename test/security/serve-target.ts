import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Socket } from 'socket.io-client';
import { afterAll, expect, vi } from 'vitest';
import { ALL_ERROR_CODES, type EpisodeRecord } from '../../protocol/index.js';
import { parley, tempDir, within, type CliProcess } from '../helpers/processes.js';
import { watchClients, watchUrlOf } from '../helpers/watch-feed.js';
import { WsAgent } from '../helpers/ws-agent.js';

/**
 * The red-team target: a real `parley serve` for one builtin agents episode (seats agent1 and agent2), and real
 * `parley agent` bot processes to play its seats (token passed by environment, as the README shows).
 * Every process and directory is cleaned up by `dispose()`.
 */
export interface ServeTarget {
  serve: CliProcess;
  url: string;
  port: number;
  out: string;
  /** Seat tokens of the first episode. */
  tokens: Map<string, string>;
  /** Seat tokens of every episode, in serve's order (`--limit N` opens N episodes). */
  episodes: Array<Map<string, string>>;
  /** Starts a real bot agent on `seat` of episode `episode` (optionally through another URL, e.g. a proxy). */
  bot(seat: string, url?: string, episode?: number): CliProcess;
  /** serve's exit code, failing with every process's output after `ms`. */
  exited(ms?: number): Promise<number | null>;
  records(): EpisodeRecord[];
  runJson(): { endedAt: string | null; stats: { cost: { usd: number }; usage: Record<string, unknown> } | null };
  /** Resident memory of the serve process, in bytes (/proc); null once it has exited. */
  rss(): number | null;
  dispose(): void;
}

export async function startServe(name: string, extra: string[] = [], limit = 1, env: NodeJS.ProcessEnv = {}): Promise<ServeTarget> {
  const tmp = tempDir(`security-${name}`);
  const out = join(tmp.path, 'run');
  const procs: CliProcess[] = [];
  const serve = parley(['serve', '--port', '0', '--scenarios', 'builtin', '--modes', 'agents', '--limit', String(limit), '--out', out, ...extra], { env: { ...process.env, ...env } });
  procs.push(serve);
  // A serve that does not listen in time is killed here: no target is returned, so no dispose() would end it.
  const [, url] = await within(serve.line(/^listening (ws:\/\/\S+)/), 30_000, 'serve listens', [serve]).catch((err: unknown) => {
    serve.kill();
    tmp.remove();
    throw err;
  });
  const episodes: Array<Map<string, string>> = [];
  if (!extra.includes('--tokens-file')) {
    await vi.waitFor(() => {
      if (serve.stdout.filter((l) => l.startsWith('seat ')).length < 2 * limit) throw new Error('waiting for the seat lines');
    }, { timeout: 15_000 });
    for (const l of serve.stdout) {
      if (l.startsWith('episode ')) episodes.push(new Map());
      const m = /^seat (\S+) token (\S+)(?: url \S+)?$/.exec(l);
      if (m) episodes.at(-1)!.set(m[1]!, m[2]!);
    }
  }
  const tokens = episodes[0] ?? new Map<string, string>();
  return {
    serve,
    url: url!,
    port: Number(new URL(url!).port),
    out,
    tokens,
    episodes,
    bot(seat, via = url!, episode = 0) {
      const token = episodes[episode]?.get(seat);
      if (!token) throw new Error(`no token for seat ${seat}`);
      const p = parley(['agent', '--url', via, '--policy', 'bot'], { env: { ...process.env, PARLEY_SEAT_TOKEN: token } });
      procs.push(p);
      return p;
    },
    exited: (ms = 60_000) => within(serve.exited, ms, 'serve exits', procs),
    records: () => readFileSync(join(out, 'episodes.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as EpisodeRecord),
    runJson: () => JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')),
    rss: () => {
      try {
        const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${serve.child.pid}/status`, 'utf8'))?.[1];
        return kb === undefined ? null : Number(kb) * 1024;
      } catch {
        return null;
      }
    },
    dispose() {
      for (const p of procs) p.kill();
      tmp.remove();
    },
  };
}

/** The public course of a game: who did what, turn by turn (what a clean run and an attacked run must share). */
export function course(record: EpisodeRecord): string[] {
  return record.turns.map((t) => `${t.turn} ${t.seat} ${t.action ? `${t.action.type}: ${t.action.argument}` : `error ${t.error?.code}`}`);
}

/** Every code the record carries (errors, failed turns, seat events) comes from the one code table. */
export function codesOutsideTable(record: EpisodeRecord): string[] {
  const codes = [...record.errors.map((e) => e.code), ...record.turns.flatMap((t) => (t.error ? [t.error.code] : [])), ...(record.seatEvents ?? []).flatMap((e) => (e.code ? [e.code] : []))];
  return codes.filter((c) => !ALL_ERROR_CODES.has(c));
}

/** A `startServe` target with `--watch` among its flags: its watch base and key, and what a test opens on it. */
export interface WatchedServe {
  t: ServeTarget;
  base: string;
  key: string;
  /** A watch-feed client with the key. */
  watcher(): Socket;
  /** A hand-driven agent connected to serve (it joins a seat itself). */
  agent(): Promise<WsAgent>;
}

/**
 * Registers, in the calling `describe`, the clean-up of one watched serve target: after the tests, its
 * watchers are disconnected, its hand-driven agents closed, and the target disposed. `start` opens it.
 */
export function watchedServeSuite(): { start(name: string, extra: string[], limit?: number): Promise<WatchedServe> } {
  let target: ServeTarget | undefined;
  const agents: WsAgent[] = [];
  const teardown: Array<() => void> = [];
  const watch = watchClients((fn) => teardown.push(fn));
  afterAll(() => {
    for (const fn of teardown) fn();
    for (const a of agents) a.close();
    target?.dispose();
  });
  return {
    async start(name, extra, limit) {
      const t = (target = await startServe(name, extra, limit));
      const { base, key } = watchUrlOf(t.serve);
      return {
        t,
        base,
        key,
        watcher: () => watch(base, { key }),
        agent: async () => {
          const a = await WsAgent.connect(t.url);
          agents.push(a);
          return a;
        },
      };
    },
  };
}

/** serve exited 0 and finished run.json, and every code its records carry is in the code table, whatever an attacker did. */
export async function expectServeFinished(t: ServeTarget): Promise<void> {
  expect(await t.exited()).toBe(0);
  const run = t.runJson();
  expect(run.endedAt).toEqual(expect.any(String));
  expect(run.stats).not.toBeNull();
  for (const r of t.records()) expect(codesOutsideTable(r)).toEqual([]);
}
