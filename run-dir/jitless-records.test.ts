import { readFileSync } from 'node:fs';
import * as z from 'zod';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import * as jit from '../protocol/index.js';
import { expectSame, mutate, rng } from '../test/helpers/schema-mutations.js';

/**
 * A `parley` command's process checks with zod's interpreter (`jitless`, cli/main.ts oneCommandProcess);
 * tests, the orchestrator under a test and any process that never calls it check with zod's generated
 * per-object parsers, and long reads with `z.compile` (protocol/decode.ts). zod reads `jitless` as each
 * object schema is built, so the interpreter's schemas here are a second copy of protocol/ built with it
 * on. Run directories are untrusted: all three paths must accept and refuse the same hostile lines
 * (prototype keys as JSON.parse makes them, numbers JSON cannot carry exactly, deep nesting, unknown keys)
 * with the same output and the same issues.
 */

const lines = JSON.parse(readFileSync(new URL('../test/fixtures/run-lines.json', import.meta.url), 'utf8')) as { records: Record<string, unknown>[]; frames: Record<string, unknown>[] };
let less: typeof jit;

beforeAll(async () => {
  z.config({ jitless: true });
  vi.resetModules();
  less = (await import('../protocol/index.js')) as typeof jit;
  z.config({ jitless: false });
});
afterAll(() => vi.resetModules());

/** Keys and values a hostile line may carry: own `__proto__` (as JSON.parse makes it), builtins' names, numbers past JSON's exact range, a deep nest. */
const KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'extra', 'turn', 'repeat', 'v', 'params', 'seat'];
const deep = (n: number): unknown => JSON.parse('['.repeat(n) + ']'.repeat(n));
const VALUES: unknown[] = [Infinity, -Infinity, NaN, 1e21, 2 ** 53 + 2, -0, 1e-7, deep(1000), JSON.parse('{"__proto__":{"polluted":1}}'), { constructor: { prototype: { y: 1 } } }, null, 'x', []];

/** `mutate`'s change, then sometimes an own hostile key set somewhere in the copy (defineProperty: no setter runs, as in JSON.parse). */
function hostile(value: Record<string, unknown>, next: () => number): Record<string, unknown> {
  const copy = mutate(value, next, KEYS);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  const targets: object[] = [];
  const walk = (v: unknown) => {
    if (v && typeof v === 'object' && targets.length < 200) {
      targets.push(v);
      for (const x of Object.values(v)) walk(x);
    }
  };
  walk(copy);
  if (next() < 0.7) Object.defineProperty(pick(targets), pick(KEYS), { value: pick(VALUES), enumerable: true, writable: true, configurable: true });
  return copy;
}

const CASES = [
  { name: 'EpisodeRecord (episodes.jsonl)', schema: (p: typeof jit) => p.EpisodeRecord as z.ZodType, values: lines.records },
  { name: 'OrchestratorFrame (ledger lines)', schema: (p: typeof jit) => p.OrchestratorFrame as z.ZodType, values: lines.frames },
];

describe('zod\'s interpreter (CLI processes) against its generated parsers and z.compile, on hostile run-directory lines', () => {
  it('the second copy is really built without generated parsers (a schema built with it off generates one)', () => {
    const made = { count: 0 };
    const real = globalThis.Function;
    globalThis.Function = new Proxy(real, { construct: (target, args) => (made.count++, Reflect.construct(target, args)) });
    try {
      less.EpisodeRecord.safeParse(lines.records[0]);
      expect(made.count).toBe(0);
      // Built now, with jitless off: its first parse generates its parser (the module's own copy may have
      // generated one already, in an earlier file of this worker: the unit tier shares module graphs).
      jit.EpisodeRecord.extend({}).safeParse(lines.records[0]);
      expect(made.count).toBeGreaterThan(0);
    } finally {
      globalThis.Function = real;
    }
  });

  it.each(CASES)('$name: the same verdict, output and issues on every path', ({ schema, values }) => {
    const next = rng(44);
    const generated = schema(jit);
    const interpreted = schema(less);
    const compiled = jit.compiledSchema(generated);
    let refused = 0;
    for (const value of values) {
      for (let i = 0; i < 60; i++) {
        const line = hostile(value, next);
        const ref = generated.safeParse(line);
        const what = `case ${i}`;
        expectSame(interpreted.safeParse(line), ref, what);
        expectSame(compiled.safeParse(line), ref, what);
        if (ref.success) expect(Object.getPrototypeOf(ref.data)).toBe(Object.prototype);
        else refused++;
      }
    }
    expect(refused).toBeGreaterThan(30);
  });
});
