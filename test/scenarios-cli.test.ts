import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Scenario } from '../scenarios/model.js';
import { reply, startFakeLlmServer, type FakeLlmServer } from '../testkit/fake-llm-server.js';
import { itWithData, sotopiaData } from './helpers/reference-data.js';
import { parleyOutputInProcess } from './helpers/parley-output.js';

/**
 * `parley scenarios …` as a user runs it: real child processes through bin/parley.js, reading the
 * reference data in ../shared/data in place, and an OpenAI-compatible fake server for `generate`.
 */
// Without SOTOPIA's real files (a fresh clone) the tests that need them skip, saying why.
const data = sotopiaData();
const SOTOPIA = data.dir;

/** `parley <args>`: its exit code and what it printed (`out`, `err`). */
async function parley(args: string[], env: Record<string, string> = {}) {
  const { code, stdout: out, stderr: err } = await parleyOutputInProcess(args, env);
  return { code, out, err };
}

let dir: string;
beforeAll(async () => { dir = await mkdtemp(path.join(os.tmpdir(), 'parley-scn-e2e-')); });
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

describe('parley scenarios (child processes)', () => {
  itWithData(data, 'imports SOTOPIA (90/40/120/450) and lists the hard subset (14)', async () => {
    const S = path.join(dir, 'S.jsonl');
    const imp = await parley(['scenarios', 'import', 'sotopia', SOTOPIA, '--out', S]);
    expect(imp.code).toBe(0);
    expect(imp.out).toContain('read 90 scenarios, 40 characters, 120 relationships, 450 character pairs');
    const list = await parley(['scenarios', 'list', S, '--subset', 'hard']);
    expect(list.code).toBe(0);
    expect(list.out.trim().split('\n').at(-1)).toBe("14 scenarios in subset 'hard' (70 character-pair instances)");
  });

  it('a malformed input exits non-zero naming file, line and field, and writes nothing', async () => {
    const bad = path.join(dir, 'bad-cocoa.json');
    await writeFile(bad, JSON.stringify([{ uuid: 'M1', kbs: [[{ Name: 'A' }], [{ Name: 'A' }]] }, { kbs: [[{ Name: 'A' }], [{ Name: 'A' }]] }], null, 2));
    const out = path.join(dir, 'M.jsonl');
    const r = await parley(['scenarios', 'import', 'cocoa-mutualfriends', bad, '--out', out]);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`${bad}, line 17, field '1.uuid': missing field`);
    expect(existsSync(out)).toBe(false);
  });

  describe('generate against an OpenAI-compatible server', () => {
    let server: FakeLlmServer;
    beforeAll(async () => {
      server = await startFakeLlmServer();
      let k = 0;
      server.setDefault(() => {
        k++;
        return reply.json({
          codename: `fake_task_${k}`,
          scenario: `Fake situation ${k}: two neighbours must agree on who repairs the shared fence after a storm.`,
          agent_goals: [`Make the neighbour pay for repair ${k} <strategy_hint>Mention the storm insurance.</strategy_hint>`, `Split the cost of repair ${k} evenly`],
          relationship: 'know_by_name',
          judge_only: '',
        });
      });
    });
    afterAll(async () => { await server.close(); });

    it('writes 5 valid, distinct scenarios; invalid answers are retried, never written', async () => {
      server.enqueue(reply.text('I am not JSON'), reply.json({ codename: 'x' }));
      const G = path.join(dir, 'G.jsonl');
      const r = await parley(['scenarios', 'generate', '--n', '5', '--model', 'openai:gpt-4', '--out', G], server.env());
      expect(r.code, r.err).toBe(0);
      expect(r.err).toContain('attempt 1: rejected');
      expect(r.err).toContain('attempt 2: rejected');
      const lines = (await readFile(G, 'utf8')).trim().split('\n').map((l) => Scenario.parse(JSON.parse(l)));
      expect(lines).toHaveLength(5);
      expect(new Set(lines.map((s) => s.narrative[0]!.text)).size).toBe(5);
      for (const s of lines) {
        expect(s.source).toBe('generated:openai:gpt-4');
        expect(s.seats[0]!.hints).toEqual([{ kind: 'strategy_hint', text: 'Mention the storm insurance.' }]);
      }
      expect(server.requests.length).toBe(7);
      expect(server.requests[0]!.body.model).toBe('gpt-4');
    });
  });
});
