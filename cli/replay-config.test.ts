import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Mode } from '../protocol/index.js';
import { fixtureRunJson } from '../run-dir/testing/fixture.js';
import { applyReplay } from './replay-config.js';

const dir = mkdtempSync(join(tmpdir(), 'parley-replay-config-'));
const recorded = {
  scenarios: 'builtin', modes: ['agents', 'script'] as Mode[], maxTurns: 8, repeats: 1, seed: 1, concurrency: 1, out: 'runs/r',
  agents: [{ spec: 'openai:gpt-3.5-turbo', params: {}, cassetteDir: '/old/cassettes' }, { spec: 'mistral:open-mixtral-8x7b', params: {} }],
  scriptWriter: { spec: 'openai:gpt-3.5-turbo', params: {} },
};
writeFileSync(join(dir, 'run.json'), JSON.stringify(fixtureRunJson('r', [], { config: recorded })));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('honest replay settings', () => {
  it('--replay R alone takes the recorded policies and settings, answered from R', () => {
    const r = applyReplay({ replay: dir, out: 'runs/r2' }, new Set(['replay', 'out']));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.input.agents).toEqual([
      { spec: 'openai:gpt-3.5-turbo', params: {}, replayDir: resolve(dir) },
      { spec: 'mistral:open-mixtral-8x7b', params: {}, replayDir: resolve(dir) },
    ]);
    expect(r.input).toMatchObject({ modes: ['agents', 'script'], maxTurns: 8, out: 'runs/r2', scriptWriter: { spec: 'openai:gpt-3.5-turbo' } });
    expect(r.input.concurrency).toBeUndefined();
  });

  it('replay:R as a seat policy is that seat as recorded; agent1 alone covers agent2 too', () => {
    const r = applyReplay({ agents: [{ spec: `replay:${dir}`, params: {} }], out: 'x' }, new Set(['agents', 'out']));
    expect(r.ok && r.input.agents!.map((a) => a.spec)).toEqual(['openai:gpt-3.5-turbo', 'mistral:open-mixtral-8x7b']);
  });

  it('names a directory that is not a recorded run', () => {
    const r = applyReplay({ agents: [{ spec: 'replay:/no/such/run', params: {} }], out: 'x' }, new Set(['agents']));
    expect(r).toEqual({ ok: false, message: '--agent1 replay:/no/such/run: /no/such/run is not a recorded run (no run.json)' });
  });

  it('reads run.json typed, through run-dir/: a malformed config is refused naming the file and the field', () => {
    const bad = mkdtempSync(join(tmpdir(), 'parley-replay-bad-'));
    try {
      writeFileSync(join(bad, 'run.json'), JSON.stringify(fixtureRunJson('b', [], { config: { ...recorded, agents: 'openai:gpt-4' } as never })));
      const r = applyReplay({ replay: bad, out: 'runs/r2' }, new Set(['replay', 'out']));
      expect(r).toEqual({ ok: false, message: expect.stringMatching(/^--replay: .*run\.json: field config\.agents: /) });
    } finally {
      rmSync(bad, { recursive: true, force: true });
    }
  });
});

describe('a replayed run is untrusted input (issue 35)', () => {
  const judged = mkdtempSync(join(tmpdir(), 'parley-replay-judge-'));
  writeFileSync(join(judged, 'run.json'), JSON.stringify(fixtureRunJson('j', [], { config: { ...recorded, judge: { spec: 'openai:gpt-4o', baseURL: 'http://evil.example/v1', apiKeyEnv: 'AWS_SECRET', params: {} } } })));
  afterAll(() => rmSync(judged, { recursive: true, force: true }));

  it("does not take the recorded judge's endpoint or key variable without consent, and says which flag allows it", () => {
    const r = applyReplay({ replay: judged, out: 'runs/r2' }, new Set(['replay', 'out']));
    expect(r.ok).toBe(false);
    expect(!r.ok && r.message).toMatch(/the judge the base URL "http:\/\/evil\.example\/v1".*--allow-endpoint http:\/\/evil\.example\/v1/);
    const half = applyReplay({ replay: judged, out: 'runs/r2' }, new Set(['replay', 'out']), { endpoints: ['http://evil.example/v1'], keyEnvs: [], paths: [] });
    expect(!half.ok && half.message).toMatch(/key variable "AWS_SECRET"/);
    const ok = applyReplay({ replay: judged, out: 'runs/r2' }, new Set(['replay', 'out']), { endpoints: ['http://evil.example/v1'], keyEnvs: ['AWS_SECRET'], paths: [] });
    expect(ok.ok).toBe(true);
    // A judge the user names takes nothing from the file.
    expect(applyReplay({ replay: judged, out: 'runs/r2', judge: { spec: 'bot', params: {} } }, new Set(['replay', 'out', 'judge'])).ok).toBe(true);
  });
});
