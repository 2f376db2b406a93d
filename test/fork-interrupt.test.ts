import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlmServer, type FakeLlmServer } from '../testkit/fake-llm-server.js';
import { promptTurn } from './fork-helpers.js';
import { parley, tempDir, within } from './helpers/processes.js';
import { CLI_GUARD_MS } from './setup/guards.js';
import { cleanEnv, parleyRun, readEpisodes } from './llm-run-helpers.js';

/**
 * Issue 37 for `parley fork`: what a fork recorded survives Ctrl-C. 12 forks of an 8-turn episode at turn 2
 * against LLM seats answering in 100 ms, sent SIGINT once after 3 forks were recorded: exit 130, the line
 * names how many were saved and the command that resumes, episodes.jsonl holds them, and that command then
 * plays only the rest (no fork recorded twice).
 */
const tmp = tempDir('fork-interrupt');
let server: FakeLlmServer;
let parentId: string;
const parentDir = () => join(tmp.path, 'parent');

beforeAll(async () => {
  server = await startFakeLlmServer({ default: (q) => ({ kind: 'content', content: JSON.stringify({ action_type: 'speak', argument: `speaking at turn ${promptTurn(q)}` }), delayMs: 100 }) });
  const run = await parleyRun(['--scenarios', 'builtin', '--modes', 'agents', '--limit', '1', '--max-turns', '8', '--agent1', 'openai:gpt-3.5-turbo', '--agent2', 'openai:gpt-3.5-turbo', '--out', parentDir()], cleanEnv(server.env()));
  expect(run.code, run.stderr).toBe(0);
  parentId = readEpisodes(parentDir())[0]!.episodeId;
});
afterAll(async () => {
  await server.close();
  tmp.remove();
});

describe('Ctrl-C during fork', () => {
  it('one SIGINT after 3 forks: exit 130, the recorded forks saved, the same command plays only the rest', async () => {
    const out = join(tmp.path, 'forks');
    const argv = ['fork', parentDir(), parentId, '--at', '2', '--repeats', '12', '--concurrency', '2', '--out', out];
    const fork = parley(argv, { env: cleanEnv(server.env()) });
    // The per-episode progress line (`[ 3/12] ok …`) is printed as the third fork is recorded.
    await within(fork.line(/^\[\s*3\/12\]/), 60_000, 'three forks recorded', [fork]);
    fork.child.kill('SIGINT');
    expect(await within(fork.exited, 60_000, 'fork to stop', [fork])).toBe(130);
    const said = /(\d+) episodes recorded and saved; resume with the same command: parley fork /.exec(fork.stdout.join('\n'));
    expect(said, fork.stdout.join('\n')).not.toBeNull();
    const saved = readEpisodes(out);
    expect(saved.length).toBe(Number(said![1]));
    expect(saved.length).toBeGreaterThanOrEqual(3);
    expect(saved.length).toBeLessThan(12);

    const rest = parley(argv, { env: cleanEnv(server.env()) });
    expect(await within(rest.exited, CLI_GUARD_MS, 'fork resumed', [rest])).toBe(0);
    const all = readEpisodes(out);
    expect(all).toHaveLength(12);
    expect(new Set(all.map((e) => e.episodeId)).size).toBe(12);
    // The ones saved before the signal are kept as they were.
    expect(all.slice(0, saved.length).map((e) => e.episodeId)).toEqual(saved.map((e) => e.episodeId));
  }, 240_000);
});
