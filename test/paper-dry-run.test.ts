import { existsSync, readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parleyInProcess } from './helpers/in-process-parley.js';
import { REPO } from './helpers/processes.js';
import { describeWithData, sotopiaData } from './helpers/reference-data.js';
import { fakeLlmSuite } from './helpers/fake-llm-suite.js';

const data = sotopiaData();

/**
 * Issue 10, contract 3: after `scenarios fetch`, `parley run --experiment examples/paper.yaml --dry-run`
 * prints 2,700 planned episodes by arm and mode and calls no server (every provider variable points at
 * a fake server that counts requests; none may arrive), writing no run directory. Run in a temp working
 * directory, where the file's `scenarios: S.jsonl` and `out: runs/paper` resolve.
 */
describeWithData(data, 'examples/paper.yaml --dry-run (issue 10, contract 3)', () => {
  const suite = fakeLlmSuite('paper-dry-run');
  const cwd = suite.tmp;


  it('prints the plan: 2,700 episodes, 1,350 per arm, 450 per mode, with tokens and cost', async () => {
    const env = { ...process.env, ...suite.server.env(), TOGETHER_API_KEY: 'x' };
    const fetch = await parleyInProcess(['scenarios', 'fetch', 'sotopia', '--from', data.dir, '--out', 'S.jsonl'], { cwd: cwd.path, env });
    expect(fetch.code, fetch.stderr.join('\n')).toBe(0);
    const cli = await parleyInProcess(['run', '--experiment', join(REPO, 'examples/paper.yaml'), '--dry-run'], { cwd: cwd.path, env });
    expect(cli.code, cli.stderr.join('\n')).toBe(0);
    const out = cli.stdout.join('\n');
    expect(out).toContain('arm gpt-3.5 → runs/paper/gpt-3.5 (protocol paper): 1,350 episodes over 450 scenario instances (script 450, agents 450, mindreaders 450)');
    expect(out).toContain('arm mixtral → runs/paper/mixtral (protocol paper): 1,350 episodes over 450 scenario instances (script 450, agents 450, mindreaders 450)');
    expect(out).toMatch(/openai:gpt-3\.5-turbo-0613 \[script writer, agent\]: ~[\d,]+ prompt \+ ~[\d,]+ completion tokens, \$\d+\.\d\d/);
    expect(out).toMatch(/openai:gpt-4-0613 \[judge\]/);
    // No seat names a temperature: agents and mindreaders at SOTOPIA's code's 1.0, the script writer at 0.7 (both arms).
    expect(out.match(/agents and mindreaders that set no temperature sample at 1\.0, as SOTOPIA's runner scripts \(--agent-temperature code\); the script writer at 0\.7/g)).toHaveLength(2);
    expect(out).toMatch(/^total: 2,700 planned episodes in 2 arm\(s\); estimated cost \$\d+\.\d\d$/m);
    expect(suite.server.requests).toHaveLength(0);
    expect(existsSync(join(cwd.path, 'runs'))).toBe(false);
  });

  // Issue 20, Contract 2 (runs after the test above, which fetched S.jsonl into cwd).
  it('says the MutualFriends answer goes to the script writer and the mindreaders; paper-corrected.yaml differs only there', async () => {
    const env = { ...process.env, ...suite.server.env(), TOGETHER_API_KEY: 'x' };
    const lines = async (file: string) => {
      const cli = await parleyInProcess(['run', '--experiment', join(REPO, file), '--dry-run'], { cwd: cwd.path, env });
      expect(cli.code, cli.stderr.join('\n')).toBe(0);
      return cli.stdout.join('\n');
    };
    const leak = /MutualFriends answer, naming the common friend\) goes to the script writer and the mindreaders/g;
    expect((await lines('examples/paper.yaml')).match(leak)).toHaveLength(2);
    const corrected = await lines('examples/paper-corrected.yaml');
    expect(corrected).not.toMatch(leak);
    expect(corrected).toMatch(/the MutualFriends answer\) goes to no generator: only the judge sees it/);
    const read = (f: string) => parse(readFileSync(join(REPO, f), 'utf8')) as Record<string, unknown>;
    const paper = read('examples/paper.yaml');
    const fixed = read('examples/paper-corrected.yaml');
    expect(paper['leakJudgeOnly']).toEqual(['script', 'mindreaders']);
    expect(fixed['leakJudgeOnly']).toEqual([]);
    // The only other difference is where the runs go, so the two grids never overwrite each other.
    const rest = (e: Record<string, unknown>) => ({ ...e, leakJudgeOnly: undefined, out: undefined });
    expect(rest(fixed)).toEqual(rest(paper));
    expect(suite.server.requests).toHaveLength(0);
  });
});
