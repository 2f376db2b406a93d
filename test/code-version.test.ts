import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packagePath } from '../disk/package-root.js';
import { codeVersion, gitDescribe, gitDescribeSync, readCodeVersionSoon } from '../orchestrator/run/code-version.js';
import { tempDir } from './helpers/processes.js';

/**
 * run.json's code version comes from `git describe --always --dirty --tags`, started when a run begins and
 * read when run.json is first written (orchestrator/run/code-version.ts): the same command as when it was
 * waited for, so the same answer, on a clean checkout, a dirty one, a tagged one and no checkout at all.
 */
describe('the code version a run records (git describe, not waited for)', () => {
  const t = tempDir('code-version');
  afterAll(() => t.remove());
  const repo = join(t.path, 'repo');
  mkdirSync(repo);
  const env = { ...process.env, GIT_AUTHOR_NAME: 'p', GIT_AUTHOR_EMAIL: 'p@example.org', GIT_COMMITTER_NAME: 'p', GIT_COMMITTER_EMAIL: 'p@example.org', GIT_CONFIG_NOSYSTEM: '1' };
  const git = (...args: string[]) => execFileSync('git', ['-C', repo, ...args], { env, stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();

  it('gives what the waited-for command gives: clean, dirty, tagged and tagged-then-moved checkouts', async () => {
    git('init', '-q');
    writeFileSync(join(repo, 'a.txt'), 'one\n');
    git('add', 'a.txt');
    git('commit', '-q', '-m', 'one');
    const head = git('rev-parse', '--short', 'HEAD');
    expect(await gitDescribe(repo)).toBe(head);
    expect(gitDescribeSync(repo)).toBe(head);
    writeFileSync(join(repo, 'a.txt'), 'two\n');
    expect(await gitDescribe(repo)).toBe(`${head}-dirty`);
    expect(gitDescribeSync(repo)).toBe(`${head}-dirty`);
    git('commit', '-q', '-am', 'two');
    git('tag', 'v1');
    expect(await gitDescribe(repo)).toBe('v1');
    writeFileSync(join(repo, 'a.txt'), 'three\n');
    git('commit', '-q', '-am', 'three');
    const described = await gitDescribe(repo);
    expect(described).toMatch(/^v1-1-g[0-9a-f]{7,}$/);
    expect(gitDescribeSync(repo)).toBe(described);
  });

  it('is null outside a checkout, as before', async () => {
    const plain = join(t.path, 'plain');
    mkdirSync(plain);
    writeFileSync(join(plain, 'a.txt'), 'x\n');
    expect(gitDescribeSync(plain)).toBeNull();
    expect(await gitDescribe(plain)).toBeNull();
  });

  it("this package's version, read beside the run, is the one codeVersion() waits for", async () => {
    await readCodeVersionSoon();
    expect(codeVersion().git).toBe(gitDescribeSync(packagePath()));
  });
});
