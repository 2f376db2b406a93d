import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reply, startFakeLlmServer, type FakeLlmServer } from '../../testkit/fake-llm-server.js';
import { readCassette } from '../../llm/cassette.js';
import { cassettePath, policyCassettes, type Tape } from '../../run-dir/cassette-layout.js';
import { createClient, type ClientConfig, type CreateClientOptions } from '../../llm/index.js';

let dir: string;
let server: FakeLlmServer;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'parley-cassette-'));
  server = await startFakeLlmServer();
});
afterEach(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const tape = { episodeId: 'ep-1', seat: 'A' };
/** A client for `tape`'s seat under `config`, on the cassette files run-dir/ names for it. */
const taped = (config: ClientConfig, options: CreateClientOptions = {}, at: Tape = tape) => createClient(config, { cassettes: policyCassettes(config, at), ...options });
const ask = (content: string) => ({ messages: [{ role: 'user' as const, content }], temperature: 0.7 });

describe('cassettes', () => {
  it('records every call of a seat and replays it byte-identically with the server stopped', async () => {
    const env = server.env();
    server.enqueue(reply.text('first answer', { usage: { prompt: 10, completion: 2, cached: 4 } }), reply.text('second answer'));
    const recorder = taped({ spec: 'openai:gpt-3.5-turbo', cassetteDir: join(dir, 'cassettes') }, { env });
    const live = [await recorder.chat(ask('one')), await recorder.chat(ask('two'))];

    const file = cassettePath(join(dir, 'cassettes'), tape);
    expect(file).toBe(join(dir, 'cassettes', 'ep-1', 'A.jsonl'));
    const entries = readCassette(file)!;
    expect(entries.map((e) => [e.seq, e.provider, e.model, e.response?.content])).toEqual([
      [0, 'openai', 'gpt-3.5-turbo', 'first answer'],
      [1, 'openai', 'gpt-3.5-turbo', 'second answer'],
    ]);

    await server.close();
    // The run directory layout: <runDir>/cassettes/<episode>/<seat>.jsonl; no key, no server needed.
    const replay = taped({ spec: 'openai:gpt-3.5-turbo', replayDir: dir }, { env: {} });
    const again = [await replay.chat(ask('one')), await replay.chat(ask('two'))];
    expect(again.map((r) => r.content)).toEqual(live.map((r) => r.content));
    expect(again[0]!.usage).toEqual({ prompt: 10, completion: 2, cached: 4 });
    expect(again.every((r) => r.retries === 0)).toBe(true);
    expect(replay.provider).toBe('openai');
    expect(replay.model).toBe('gpt-3.5-turbo');
  });

  it('a recorder keeps its file open for appending: each line is on disk when the call returns, after close too, and with more than 64 recorders open at once', async () => {
    const env = server.env();
    const config = { spec: 'openai:gpt-3.5-turbo', cassetteDir: join(dir, 'cassettes') };
    const tapes = Array.from({ length: 70 }, (_, i) => ({ episodeId: `ep-${i}`, seat: 'A' }));
    const recorders = tapes.map((t) => taped(config, { env }, t));
    const files = tapes.map((t) => cassettePath(join(dir, 'cassettes'), t));
    for (const [i, recorder] of recorders.entries()) {
      server.enqueue(reply.text(`answer ${i}`));
      await recorder.chat(ask(`ask ${i}`));
      expect(readCassette(files[i]!)!.map((e) => e.response?.content)).toEqual([`answer ${i}`]);
    }
    // The first recorders gave their files up to newer ones; a closed one still records, in order.
    recorders[0]!.close?.();
    recorders[69]!.close?.();
    for (const i of [0, 69]) {
      server.enqueue(reply.text(`again ${i}`));
      await recorders[i]!.chat(ask(`again ${i}`));
      expect(readCassette(files[i]!)!.map((e) => [e.seq, e.response?.content])).toEqual([[0, `answer ${i}`], [1, `again ${i}`]]);
    }
    // A new recorder for the same seat (an episode played again) starts the file afresh.
    server.enqueue(reply.text('rerun'));
    await taped(config, { env }, tapes[69]).chat(ask('rerun'));
    expect(readCassette(files[69]!)!.map((e) => [e.seq, e.response?.content])).toEqual([[0, 'rerun']]);
  });

  it('replay:<dir> specs work and name the recorded provider and model', async () => {
    await taped({ spec: 'mistral:open-mixtral-8x7b', cassetteDir: join(dir, 'cassettes') }, { env: server.env() }).chat(ask('x'));
    const replay = taped({ spec: `replay:${dir}` });
    expect([replay.provider, replay.model]).toEqual(['mistral', 'open-mixtral-8x7b']);
    await expect(replay.chat(ask('x'))).resolves.toMatchObject({ content: expect.stringContaining('action_type') });
  });

  it('a replay that asks more calls than recorded, or a different request, is an explicit error', async () => {
    await taped({ spec: 'openai:m', cassetteDir: join(dir, 'cassettes') }, { env: server.env() }).chat(ask('hello'));
    const replay = taped({ spec: 'openai:m', replayDir: dir });
    const mismatch = await replay.chat(ask('hullo')).catch((e) => e);
    expect(mismatch.code).toBe('llm/replay_mismatch');
    expect(mismatch.message).toMatch(/message 0 \(user\) differs at character 1/);
    await replay.chat(ask('hello'));
    await expect(replay.chat(ask('hello'))).rejects.toMatchObject({ code: 'llm/replay_exhausted' });
    const other = taped({ spec: 'openai:m', replayDir: dir }, {}, { episodeId: 'ep-2', seat: 'A' });
    await expect(other.chat(ask('hello'))).rejects.toMatchObject({ code: 'llm/replay_missing' });
  });

  it('records a call that finally failed, and the replay fails the same way', async () => {
    server.enqueue({ kind: 'status', status: 400, message: 'nope' });
    const recorder = taped({ spec: 'openai:m', cassetteDir: join(dir, 'cassettes') }, { env: server.env() });
    await expect(recorder.chat(ask('q'))).rejects.toMatchObject({ code: 'llm/http_error' });
    const line = JSON.parse(readFileSync(cassettePath(join(dir, 'cassettes'), tape), 'utf8').trim());
    expect(line.error).toMatchObject({ code: 'llm/http_error', status: 400 });
    const replay = taped({ spec: 'openai:m', replayDir: dir });
    await expect(replay.chat(ask('q'))).rejects.toMatchObject({ code: 'llm/http_error', status: 400 });
  });

  it('keeps episode ids from escaping the cassette directory', () => {
    expect(cassettePath('/c', { episodeId: '../../etc', seat: 'a/b' })).toBe('/c/.._.._etc/a_b.jsonl');
    expect(cassettePath('/c', { episodeId: '..', seat: 'A' })).toBe('/c/_../A.jsonl');
  });
});
