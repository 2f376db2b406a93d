import type * as z from 'zod';
import { expect } from 'vitest';

/**
 * Valid values and thousands of mutations of them, to check that a schema's compiled fast path (zod's
 * `z.compile`, protocol/decode.ts) answers as its own parser does: protocol/compiled-decode.test.ts (the hot
 * frames) and run-dir/compiled-records.test.ts (records, ledger lines and scenarios read from run directories).
 */

/** Deterministic (mulberry32): a failure names its seed and case number, and reproduces. */
export function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Values at and across the schemas' bounds, of every JSON type. */
const REPLACEMENTS: unknown[] = [
  null, true, 0, -0, -1, 1, 1.5, 12, 13, 1000, 1001, 86_400_000, 86_400_001, 1_000_000, 1_000_001, 10_000_000, 10_000_001,
  2 ** 53 - 1, 2 ** 53, 1e300, -1e-9, '', 'x', 'speak', 'leave', 'turn.event', 'turn.act', 'nope', 'a\nb', 'a\u2028b', 'a\u202eb', 'a\u0000b',
  'gpt-4o', 'bad name!', '/x', 'x'.repeat(32), 'x'.repeat(33), 'x'.repeat(64), 'x'.repeat(65), 'x'.repeat(128), 'x'.repeat(200), 'x'.repeat(201),
  'x'.repeat(2000), 'x'.repeat(8000), 'x'.repeat(8001), '😀'.repeat(100), '😀'.repeat(101), '😀'.repeat(4000), '😀'.repeat(4001),
  [], ['b'], ['speak', 'none'], ['x'.repeat(65)], Array.from({ length: 12 }, (_, i) => `s${i}`), Array.from({ length: 13 }, (_, i) => `s${i}`),
  {}, { a: 1 }, { temperature: 1 }, { 'bad\nkey': 1 }, Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`k${i}`, i])), { big: 'x'.repeat(5000) },
];

type Json = Record<string, unknown> | unknown[];

/** Every object or array inside `value`, with itself. */
function containers(value: unknown, out: Json[] = []): Json[] {
  if (value && typeof value === 'object') {
    out.push(value as Json);
    for (const v of Object.values(value)) containers(v, out);
  }
  return out;
}

/** Keys a mutation may add (unknown to a schema, or optional ones it knows). */
const FRAME_KEYS = ['extra', 'to', 'cached', 'game', 'type', 'v', 'id', 'argument', 'params', 'usage'];

/** One random change somewhere in a copy of `frame`; sometimes two. */
export function mutate(frame: Record<string, unknown>, next: () => number, addable: readonly string[] = FRAME_KEYS): Record<string, unknown> {
  const copy = structuredClone(frame);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  // A fresh copy: a later change must not reach into the shared list.
  const value = () => structuredClone(pick(REPLACEMENTS));
  const changes = next() < 0.2 ? 2 : 1;
  for (let c = 0; c < changes; c++) {
    const target = pick(containers(copy));
    const keys = Object.keys(target);
    const roll = next();
    if (Array.isArray(target)) {
      if (roll < 0.3 && target.length) target.splice(Math.floor(next() * target.length), 1);
      else if (roll < 0.6) target.push(value());
      else if (target.length) target[Math.floor(next() * target.length)] = value();
    } else if (roll < 0.2 && keys.length) {
      delete target[pick(keys)];
    } else if (roll < 0.3) {
      target[pick(addable)] = value();
    } else if (keys.length) {
      target[pick(keys)] = value();
    }
  }
  return copy;
}

/** The same verdict, the same output (keys in the same order) or the same issues. */
export function expectSame(a: z.ZodSafeParseResult<unknown>, b: z.ZodSafeParseResult<unknown>, what: string): void {
  expect(a.success, what).toBe(b.success);
  if (a.success && b.success) {
    expect(a.data, what).toStrictEqual(b.data);
    // The same keys in the same order (a record's bytes depend on it).
    expect(JSON.stringify(a.data), what).toBe(JSON.stringify(b.data));
  } else if (!a.success && !b.success) {
    expect(a.error.issues, what).toEqual(b.error.issues);
  }
}

