import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readCassette, RecordingClient } from './cassette.js';
import type { ChatResponse, LlmClient } from './types.js';

const entry = (seq: number) => ({ seq, at: '2026-01-01T00:00:00.000Z', provider: 'openai', model: 'm', request: { messages: [{ role: 'user', content: `q${seq}` }] }, response: { text: `a${seq}` } });

describe('readCassette and a torn last line (a crash mid-append)', () => {
  const dirs: string[] = [];
  const file = () => {
    const d = mkdtempSync(join(tmpdir(), 'parley-cassette-torn-'));
    dirs.push(d);
    return join(d, 'seat.jsonl');
  };
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
    vi.restoreAllMocks();
  });

  it('leaves the torn line out and reports it through onTorn', () => {
    const f = file();
    writeFileSync(f, `${JSON.stringify(entry(0))}\n${JSON.stringify(entry(1)).slice(0, 30)}`);
    const torn: string[] = [];
    const entries = readCassette(f, (_file, message) => torn.push(message));
    expect(entries?.map((e) => e.seq)).toEqual([0]);
    expect(torn).toHaveLength(1);
    expect(torn[0]).toContain(`${f}:2`);
  });

  it('an unterminated last line is torn even when it parses (the one torn-line rule): every append ends with a newline', () => {
    const f = file();
    writeFileSync(f, `${JSON.stringify(entry(0))}\n${JSON.stringify(entry(1))}`);
    const torn: string[] = [];
    expect(readCassette(f, (_file, message) => torn.push(message))?.map((e) => e.seq)).toEqual([0]);
    expect(torn).toEqual([expect.stringContaining(`${f}:2: torn last line`)]);
  });

  it('by default warns once per file, however often the file is read', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const f = file();
    writeFileSync(f, `${JSON.stringify(entry(0))}\n{"seq":1,`);
    readCassette(f);
    readCassette(f);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![0])).toContain('torn last line');
  });

  it('still throws on a bad line that is not the last (a bug or a hand edit)', () => {
    const f = file();
    writeFileSync(f, `{"seq":0,\n${JSON.stringify(entry(1))}\n`);
    expect(() => readCassette(f, () => {})).toThrow(/:1: not a JSON cassette entry/);
  });

  it('a resumed recording cuts the torn line off before appending, so every line parses', async () => {
    const f = file();
    writeFileSync(f, `${JSON.stringify(entry(0))}\n{"seq":1,"at":`);
    const inner: LlmClient = { provider: 'openai', model: 'm', chat: async () => ({ content: 'next', usage: { promptTokens: 1, completionTokens: 1 }, model: 'm', latencyMs: 1, retries: 0 }) as unknown as ChatResponse };
    const rec = new RecordingClient(inner, f, { resume: true });
    await rec.chat({ messages: [{ role: 'user', content: 'again' }] });
    const lines = readFileSync(f, 'utf8').trimEnd().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as { seq: number }).seq)).toEqual([0, 1]);
  });
});
