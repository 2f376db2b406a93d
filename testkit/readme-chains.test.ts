import { describe, expect, it } from 'vitest';
import { shellBlocks } from './readme-blocks.js';
import { chainCost, chainsOf, changesState, pathsOf, shardsOf, type ChainContext } from './readme-chains.js';

const ctx: ChainContext = {
  repo: new URL('..', import.meta.url).pathname,
  linked: new Set(['examples', 'docs', 'package.json']),
  env: { OPENAI_API_KEY: 'k' },
  envPlaceholders: { 'your-openai-key': 'OPENAI_API_KEY' },
};
const lines = (...blocks: string[][]) => blocks.map((b) => ['```bash', ...b, '```'].join('\n')).join('\n\n');
const chainLines = (md: string) => chainsOf(shellBlocks('X.md', md), ctx).map((c) => c.map((b) => b.line));

describe('pathsOf', () => {
  it('keys run directories and clone files by what precedes the first dot, and ignores model ids and repository files', () => {
    expect(pathsOf('npx parley pack runs/r1 --out runs/r1.tar.gz', ctx)).toEqual(['runs/r1']);
    expect(pathsOf('npx parley probe runs/r1 --out runs/r1-friend.jsonl --model openai:gpt-3.5-turbo', ctx)).toEqual(['runs/r1', 'runs/r1-friend']);
    expect(pathsOf('npx parley scenarios fetch sotopia --out S.jsonl --rubric examples/rubrics/x.yaml', ctx)).toEqual(['S']);
    expect(pathsOf("npx parley eval runs/paper/gpt-3.5 --param agent2.temperature=0.2 --out 'runs/forks/ep1'", ctx)).toEqual(['runs/paper', 'runs/forks']);
  });

  it('counts the run directory an experiment file of the repository names', () => {
    expect(pathsOf('npx parley run --experiment examples/whispers.yaml', ctx)).toContain('runs/whispers');
  });
});

describe('changesState', () => {
  it('counts cd and export, but not an export of the values the environment holds', () => {
    expect(changesState('cd clients/python && python3 -m unittest', ctx)).toBe(true);
    expect(changesState('export FOO=1', ctx)).toBe(true);
    expect(changesState('export OPENAI_API_KEY=<your-openai-key>', ctx)).toBe(false);
    expect(changesState('export OPENAI_API_KEY=other', ctx)).toBe(true);
    expect(changesState('npx parley run --out runs/set', ctx)).toBe(false);
  });
});

describe('chainsOf', () => {
  it('chains blocks that name the same path, keeps the others apart, each chain in order', () => {
    const md = lines(['npx parley run --out runs/a'], ['npx parley run --out runs/b'], ['npx parley report runs/a.tar.gz']);
    expect(chainLines(md)).toEqual([[1, 9], [5]]);
  });

  it('chains a block with a placeholder to the block before it in its file', () => {
    const md = lines(['npm start'], ['npx parley run --out runs/b'], ['npx parley show runs/<that-dir>']);
    expect(chainLines(md)).toEqual([[1], [5, 9]]);
  });

  it('chains every block after a change of shell state to it', () => {
    const md = lines(['npx parley run --out runs/a'], ['export FOO=1'], ['npx parley run --out runs/b'], ['npx parley run --out runs/c']);
    expect(chainLines(md)).toEqual([[1], [5, 9, 13]]);
  });

  it('does not chain through a command a skip directive keeps from running', () => {
    const md = ['```bash', 'npx parley run --out runs/a', '```', '<!-- readme-test: skip "runs/a": not here -->', '```bash', 'npx parley show runs/a', '```'].join('\n');
    expect(chainLines(md)).toEqual([[1], [5]]);
  });
});

describe('shardsOf', () => {
  it('puts every chain in exactly one shard, the heaviest alone first', () => {
    const md = lines(['npx parley run --out runs/a', 'npx parley eval runs/a', 'npx parley report runs/a'], ['npx parley show runs/b'], ['npx parley show runs/c']);
    const shards = shardsOf(chainsOf(shellBlocks('X.md', md), ctx), 2);
    expect(shards.map((s) => s.map((c) => c.map((b) => b.line)))).toEqual([[[1]], [[7], [11]]]);
  });
});

describe('shardsOf by measured weights', () => {
  it('balances by what each command costs, not by how many commands a chain has', () => {
    const md = lines(['npx parley run --out runs/a'], ['npx parley show runs/b', 'npx parley report runs/b', 'npx parley export runs/b'], ['npx parley show runs/c']);
    const weight = (_: string, code: string) => (code.includes('runs/a') ? 20 : 1);
    const shards = shardsOf(chainsOf(shellBlocks('X.md', md), ctx), 2, weight);
    expect(shards.map((s) => s.map((c) => c.map((b) => b.line)))).toEqual([[[1]], [[5], [11]]]);
    expect(chainCost(chainsOf(shellBlocks('X.md', md), ctx)[1]!, weight)).toBe(3);
  });
});
