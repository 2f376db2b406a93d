import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { directiveFor, type ShellBlock } from './readme-blocks.js';
import { commandWeight } from './readme-weights.js';

/**
 * Which shell blocks of README.md and docs/*.md must run in one sandbox, in order, and which may run
 * apart (the README test runs its chains in separate sandboxes at once: test/readme/). A block is chained
 * to the earlier blocks it may depend on:
 * - a path both name: a run directory `runs/NAME…` or a file of the clone (`S.jsonl`), keyed by what
 *   precedes the first `.` (`runs/r1.tar.gz` is `runs/r1`'s, `runs/ft.train.jsonl` the one
 *   `--out runs/ft.jsonl` wrote), including the `runs/…` an experiment or study file of the repository names;
 * - a `<placeholder>` filled from earlier output: the block just before it in its file (where it is printed);
 * - shell state (`cd`, `export`, `source`…): every later block, unless it is an `export` of values the
 *   test's environment already holds (the README's `export OPENAI_API_KEY=<your-openai-key>`).
 * Naming a path is counted whether the block reads or writes it: a chain may hold more than it must,
 * never less. Commands a `skip` directive keeps from running are not counted.
 */

/** File types a bare word names as a file of the clone (not a model id such as `gpt-3.5-turbo`). */
const FILE = /^[\w-]+(?:\.[\w-]+)*\.(?:jsonl|json|csv|ya?ml|md|html|txt|gz|parquet|svg)$/;
const STATE = /(?:^|[;&|(]\s*)(?:cd|export|unset|source|alias|declare|pushd|popd|set|\.)(?:\s|$)/;
const PLACEHOLDER = /<([A-Za-z][\w-]*)>/g;

export interface ChainContext {
  /** The repository: the files an experiment names are read from it. */
  repo: string;
  /** The top-level entries of the clone that the sandbox links in (read-only for the commands). */
  linked: Set<string>;
  /** The test's environment and the placeholders it fills (`<your-openai-key>` → OPENAI_API_KEY). */
  env: NodeJS.ProcessEnv;
  envPlaceholders: Record<string, string>;
}

/** The paths one command names, as chain keys (`runs/r1`, `S`). */
export function pathsOf(code: string, ctx: ChainContext): string[] {
  const keys = new Set<string>();
  for (const raw of code.split(/[\s;|&<>()=]+/)) {
    const word = raw.replace(/^['"]|['"]$/g, '');
    if (!word || word.startsWith('-') || word.startsWith('/') || word.startsWith('..')) continue;
    const runs = /^runs\/([^/.]+)/.exec(word);
    if (runs) {
      keys.add(`runs/${runs[1]}`);
      continue;
    }
    const top = word.split('/')[0]!;
    if (ctx.linked.has(top)) {
      // A file of the repository (an experiment, a study): the run directories it names are written too.
      if (/\.ya?ml$/.test(word) && existsSync(join(ctx.repo, word))) {
        for (const m of readFileSync(join(ctx.repo, word), 'utf8').matchAll(/\bruns\/([^/.\s'"]+)/g)) keys.add(`runs/${m[1]}`);
      }
      continue;
    }
    if (!word.includes('/') && FILE.test(word)) keys.add(word.split('.')[0]!);
  }
  return [...keys];
}

/** Whether a command changes the shell state later commands start from (an exported variable, the directory). */
export function changesState(code: string, ctx: ChainContext): boolean {
  if (!STATE.test(code)) return false;
  // `export A=<a> B=<b>` where the environment already holds exactly those values changes nothing.
  const exp = /^export((?:\s+[A-Za-z_]\w*=\S+)+)\s*$/.exec(code.trim());
  if (!exp) return true;
  return exp[1]!.trim().split(/\s+/).some((a) => {
    const [name, value] = [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)];
    const filled = value.replace(PLACEHOLDER, (whole, p: string) => {
      const from = ctx.envPlaceholders[p];
      return from && ctx.env[from] !== undefined ? ctx.env[from]! : whole;
    });
    return ctx.env[name] !== filled;
  });
}

/** The blocks in chains: each chain in the blocks' order, chains ordered by their first block. */
export function chainsOf(blocks: ShellBlock[], ctx: ChainContext): ShellBlock[][] {
  const parent = blocks.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  const join = (a: number, b: number) => { parent[find(a)] = find(b); };
  const lastWith = new Map<string, number>();
  let barrier: number | undefined;
  blocks.forEach((block, i) => {
    const run = block.commands.filter((c) => directiveFor(block, c)?.kind !== 'skip');
    if (!run.length) return;
    if (barrier !== undefined) join(i, barrier);
    for (const key of run.flatMap((c) => pathsOf(c.code, ctx))) {
      const before = lastWith.get(key);
      if (before !== undefined) join(i, before);
      lastWith.set(key, i);
    }
    const placeholders = run.some((c) => [...c.code.matchAll(PLACEHOLDER)].some((m) => !ctx.envPlaceholders[m[1]!]));
    if (placeholders) {
      for (let j = i - 1; j >= 0; j--) {
        if (blocks[j]!.file === block.file && blocks[j]!.commands.some((c) => directiveFor(blocks[j]!, c)?.kind !== 'skip')) {
          join(i, j);
          break;
        }
      }
    }
    if (run.some((c) => changesState(c.code, ctx))) barrier = i;
  });
  const chains = new Map<number, ShellBlock[]>();
  blocks.forEach((block, i) => {
    const root = find(i);
    chains.set(root, [...(chains.get(root) ?? []), block]);
  });
  return [...chains.values()].sort((a, b) => blocks.indexOf(a[0]!) - blocks.indexOf(b[0]!));
}

/** A chain's cost: the sum of its commands' measured wall seconds (testkit/readme-weights.ts), skipped ones left out. */
export function chainCost(chain: ShellBlock[], weight = commandWeight): number {
  return chain.reduce((sum, b) => sum + b.commands
    .filter((c) => directiveFor(b, c)?.kind !== 'skip')
    .reduce((s, c) => s + weight(b.file, c.code), 0), 0);
}

/**
 * The chains split into `n` shards of about equal cost (chainCost), the heaviest chain first onto the
 * lightest shard: the same split in every shard's test file, so the slowest shard is about as short as the
 * longest chain allows. Each shard keeps its chains in the order the files give them.
 */
export function shardsOf(chains: ShellBlock[][], n: number, weight = commandWeight): ShellBlock[][][] {
  const shards = Array.from({ length: n }, () => ({ cost: 0, chains: [] as number[] }));
  const order = chains.map((c, i) => ({ i, cost: chainCost(c, weight) })).sort((a, b) => b.cost - a.cost || a.i - b.i);
  for (const { i, cost: c } of order) {
    const lightest = shards.reduce((min, s) => (s.cost < min.cost ? s : min));
    lightest.cost += c;
    lightest.chains.push(i);
  }
  return shards.map((s) => s.chains.sort((a, b) => a - b).map((i) => chains[i]!));
}
