import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reply, startFakeLlmServer, type FakeLlmServer } from '../testkit/fake-llm-server.js';
import { tempDir } from './helpers/processes.js';
import { cleanEnv, parleyRun, readEpisodes } from './llm-run-helpers.js';

/**
 * `--persona prose|fields` (issue 43's persona-rendering axis): how characters' profiles are written into
 * Parley's own prompts. Prose is the default and leaves prompts and episode ids as they were; fields
 * writes one labelled line per field for the agents and the script writer; the paper protocol refuses it.
 */
describe('persona rendering', () => {
  let server: FakeLlmServer;
  const tmp = tempDir('persona');
  beforeAll(async () => {
    server = await startFakeLlmServer({
      default: (q) => {
        const text = JSON.stringify(q.body.messages ?? []);
        return text.includes('"turns"') || text.includes('script') ? reply.json({ turns: [{ seat: 'agent1', action_type: 'speak', argument: 'hello' }, { seat: 'agent2', action_type: 'leave', argument: '' }] }) : reply.json({ action_type: 'speak', argument: 'hello' });
      },
    });
  });
  afterAll(async () => {
    await server.close();
    tmp.remove();
  });

  const run = (name: string, extra: string[]) =>
    parleyRun(['--scenarios', 'builtin', '--subset', 'craigslist_bargains', '--modes', 'agents,script', '--limit', '2', '--max-turns', '2', '--agent1', 'openai:gpt-4o', '--agent2', 'openai:gpt-4o', '--script-writer', 'openai:gpt-4o', '--out', join(tmp.path, name), ...extra], cleanEnv(server.env()));
  const promptsSince = (from: number) => server.requests.slice(from).map((q) => (q.body.messages ?? []).map((m) => String(m.content)).join('\n'));

  it('fields: every agent and script prompt lists the profile as labelled lines; prose (the default) does not, and keeps its episode ids', async () => {
    const before = server.requests.length;
    const prose = await run('prose', []);
    expect(prose.code, prose.stderr).toBe(0);
    const mid = server.requests.length;
    const fields = await run('fields', ['--persona', 'fields']);
    expect(fields.code, fields.stderr).toBe(0);
    const proseIds = readEpisodes(join(tmp.path, 'prose')).map((e) => e.episodeId);
    const fieldIds = readEpisodes(join(tmp.path, 'fields')).map((e) => e.episodeId);
    expect(readEpisodes(join(tmp.path, 'prose')).map((e) => e.mode).sort()).toEqual(['agents', 'script']);
    expect(proseIds.every((id) => !id.includes('persona'))).toBe(true);
    // A departure from the default is part of what an episode is: its own ids.
    expect(fieldIds.every((id) => !proseIds.includes(id))).toBe(true);
    const proseText = promptsSince(before).slice(0, mid - before);
    const fieldText = promptsSince(mid);
    expect(proseText.length).toBeGreaterThan(0);
    expect(fieldText.length).toBeGreaterThan(0);
    expect(proseText.every((t) => !/\n- Name: /.test(t))).toBe(true);
    expect(fieldText.every((t) => /\n- Name: /.test(t) && /\n- Occupation: /.test(t))).toBe(true);
  });

  it('is refused under --protocol paper, in one line, with nothing written', async () => {
    const out = join(tmp.path, 'paper');
    const refused = await run('paper', ['--protocol', 'paper', '--persona', 'fields']);
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toContain('--persona');
    expect(existsSync(out)).toBe(false);
  });
});
