import { describe, expect, it } from 'vitest';
import { directiveFor, shellBlocks, splitComment } from './readme-blocks.js';

const md = [
  '# Title',
  '```bash',
  'npx parley run --out runs/a   # a comment with `code` and <T>',
  '',
  "npx parley run --mindread 'a<-b;c' \\",
  '  --out runs/b        # continued',
  '# a comment line',
  'npx parley run --bogus        # fails: unknown flag --bogus',
  '```',
  '```yaml',
  'not: shell',
  '```',
  '<!-- readme-test: skip "serve": needs a person -->',
  '<!-- readme-test: background "annotate" until "http://" -->',
  '```sh',
  'npx parley serve --port 0',
  'npx parley annotate runs/a runs/b',
  'echo "# not a comment" x#y',
  '```',
  '<!-- readme-test: skip: two machines -->',
  '```bash',
  'ssh there',
  '```',
].join('\n');

describe('shellBlocks', () => {
  const blocks = shellBlocks('X.md', md);
  it('finds shell blocks only, with their lines and commands', () => {
    expect(blocks.map((b) => [b.line, b.index, b.commands.length])).toEqual([[2, 1, 3], [15, 2, 3], [21, 3, 1]]);
    const [a, b, c] = blocks[0]!.commands;
    expect(a).toMatchObject({ line: 3, code: 'npx parley run --out runs/a', comment: 'a comment with `code` and <T>' });
    expect(a!.fails).toBeUndefined();
    expect(b).toMatchObject({ line: 5, code: "npx parley run --mindread 'a<-b;c' --out runs/b", comment: 'continued' });
    expect(c).toMatchObject({ line: 8, fails: 'unknown flag --bogus' });
  });
  it('reads the directives above a fence and applies them by substring', () => {
    const block = blocks[1]!;
    expect(directiveFor(block, block.commands[0]!)).toEqual({ kind: 'skip', match: 'serve', reason: 'needs a person' });
    expect(directiveFor(block, block.commands[1]!)).toEqual({ kind: 'background', match: 'annotate', until: 'http://' });
    expect(directiveFor(block, block.commands[2]!)).toBeUndefined();
    expect(directiveFor(blocks[2]!, blocks[2]!.commands[0]!)).toEqual({ kind: 'skip', reason: 'two machines' });
  });
  it('refuses an unknown directive', () => {
    expect(() => shellBlocks('X.md', '<!-- readme-test: skipp -->\n```bash\nls\n```')).toThrow(/unknown readme-test directive: skipp/);
  });
});

describe('splitComment', () => {
  it('keeps # inside quotes and words', () => {
    expect(splitComment('echo "a # b" c#d # e')).toEqual({ code: 'echo "a # b" c#d', comment: 'e' });
    expect(splitComment("grep '^seat #1' f")).toEqual({ code: "grep '^seat #1' f", comment: '' });
    expect(splitComment('# all comment')).toEqual({ code: '', comment: 'all comment' });
  });
});
