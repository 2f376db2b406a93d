import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shellBlocks } from '../../testkit/readme-blocks.js';
import { REPO } from '../../testkit/processes.js';
import { cleanEnv } from '../llm-run-helpers.js';
import { ReadmeRunner, readText } from './runner.js';
import { makeSandbox, untrackedLeftovers, type Sandbox } from './sandbox.js';

/**
 * The README test's runner itself (issue 37, contract 4): a broken README command fails the test, and
 * the failure names the file, line, block and command; a block meant to fail must fail with its message.
 */
describe('the README runner', () => {
  let sandbox: Sandbox;
  let runner: ReadmeRunner;
  beforeAll(() => {
    sandbox = makeSandbox();
    runner = new ReadmeRunner(sandbox, cleanEnv({ HOME: join(sandbox.state, 'home') }), 60_000);
  });
  afterAll(() => sandbox?.remove());

  const one = (md: string) => shellBlocks('X.md', md)[0]!;

  it("fails on a broken command of the real README, naming the file, line, block and command", async () => {
    const readme = readText(REPO, 'README.md');
    const good = 'npx parley scenarios make groups --n 10 --out runs/G.jsonl';
    expect(readme).toContain(good);
    const broken = readme.replace(good, 'npx parley scenarios make groups --n ten --out runs/G.jsonl');
    const block = shellBlocks('README.md', broken).find((b) => b.commands.some((c) => c.code.includes('--n ten')))!;
    const command = block.commands.find((c) => c.code.includes('--n ten'))!;
    const failure = runner.runBlock({ ...block, commands: [command] });
    await expect(failure).rejects.toThrow(`README.md:${command.line} (block ${block.index} of README.md`);
    await expect(failure).rejects.toThrow('command: npx parley scenarios make groups --n ten');
    await expect(failure).rejects.toThrow(/exit 2/);
    // The same command as written in the README passes.
    await runner.runBlock({ ...block, commands: [{ ...command, code: good, source: good }] });
  });

  it('checks a block meant to fail: it must fail, with its message', async () => {
    await runner.runBlock(one('```bash\nnpx parley run --bogus   # fails: unknown flag --bogus\n```'));
    await expect(runner.runBlock(one('```bash\nnpx parley --version   # fails: unknown flag\n```'))).rejects.toThrow(/X\.md:2 .*meant to fail .* but exited 0/);
    await expect(runner.runBlock(one('```bash\nnpx parley run --bogus   # fails: no such message\n```'))).rejects.toThrow(/without printing "no such message"/);
  });

  it('fills placeholders from what earlier commands printed, and carries exported variables', async () => {
    await runner.runBlock(one('```bash\necho "run directory: runs/demo-xyz"\nexport GREETING=hello\ntest "<that-dir>" = demo-xyz && test "$GREETING" = hello\n```'));
    await expect(runner.runBlock(one('```bash\necho <no-such-thing>\n```'))).rejects.toThrow(/no rule fills the placeholder <no-such-thing>/);
  });

  it('stops a background server at the end of its block', async () => {
    // A server that never ends by itself (as the README's `parley study`, `watch`, `annotate`): the block
    // ends as soon as its other commands have, well inside this test's timeout (it waited a minute before).
    const server = '<!-- readme-test: background "forever" until "ready" -->\n```bash\nnode -e \'console.log("ready"); setInterval(() => {}, 1000)\' forever\necho beside\n```';
    await runner.runBlock(one(server));
    expect(runner.outputs.at(-1)).toContain('ready');
  }, 30_000);

  it('reports a leftover that .gitignore does not cover', () => {
    writeFileSync(join(sandbox.cwd, 'leftover.txt'), 'x');
    writeFileSync(join(sandbox.cwd, 'S.jsonl'), 'x');
    expect(untrackedLeftovers(sandbox)).toEqual(['leftover.txt']);
  });
});
