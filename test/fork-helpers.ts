import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ReceivedRequest } from '../testkit/fake-llm-server.js';

/** The turn an LLM seat's request is for, read from its prompt (`You are at Turn #n.` under paper, `You are at Turn #n;` under parley). */
export function promptTurn(q: ReceivedRequest): number {
  const text = (q.body.messages ?? []).map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content))).join('\n');
  const m = /You are at Turn #(\d+)[.;]/.exec(text);
  if (!m) throw new Error(`request ${q.n} names no turn`);
  return Number(m[1]);
}

/** A seat's ledger, parsed. */
export function ledger(dir: string, episodeId: string, seat: string): Array<Record<string, unknown> & { type: string; turn?: number }> {
  return readFileSync(join(dir, 'ledgers', episodeId, `${seat}.jsonl`), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
}

/**
 * What a seat knew before turn `at`, comparable between a parent and its fork. Documented differences
 * left out: the envelope `id`; in the welcome, the seat's `resume` secret and `episodeId` (each episode
 * its own); `turn.request` frames (a replayed turn asks no seat) and `ping`s (per connection).
 */
export function knownBefore(frames: ReturnType<typeof ledger>, at: number): unknown[] {
  return frames
    .filter((f) => f.type === 'seat.welcome' || (f.type === 'peer.state' && f.reason !== 'fork_reveal') || (f.type === 'turn.event' && f.turn! < at))
    .map(({ id: _id, resume: _r, episodeId: _e, ...rest }) => rest);
}

/** Every file path under a directory with its contents (to show a refused command changed nothing). */
export function snapshot(dir: string): Record<string, string> {
  if (!existsSync(dir)) return {};
  return Object.fromEntries(
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((f) => f.isFile())
      .map((f) => [join(f.parentPath, f.name), readFileSync(join(f.parentPath, f.name), 'utf8')]),
  );
}
