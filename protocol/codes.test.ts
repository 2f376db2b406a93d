import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ALL_ERROR_CODES, CloseCode, CODE_PATTERN, ErrorCode, FINAL_CLOSE_CODES, JOIN_REFUSAL_CODES, SEAT_ENDING_CLOSE_CODES } from './codes.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' || name === 'testing' ? [] : sources(path);
    return path.endsWith('.ts') && !path.endsWith('.test.ts') ? [path] : [];
  });
}

describe('the code table', () => {
  it('has unique, namespaced error codes and application close codes', () => {
    const values = Object.values(ErrorCode);
    expect(new Set(values).size).toBe(values.length);
    for (const v of values) {
      expect(v).toMatch(/^[a-z]+\/[a-z_]+$/);
      // The grammar a remote agent's reported codes are held to admits every code of the table.
      expect(v).toMatch(CODE_PATTERN);
    }
    for (const c of Object.values(CloseCode)) expect(c >= 4000 && c <= 4999).toBe(true);
    for (const c of [...JOIN_REFUSAL_CODES]) expect(ALL_ERROR_CODES.has(c)).toBe(true);
    for (const c of [...FINAL_CLOSE_CODES, ...SEAT_ENDING_CLOSE_CODES]) expect(Object.values(CloseCode)).toContain(c);
  });

  it('is the only source of seat, turn, protocol, policy and connection codes in the orchestrator and agent-node', () => {
    const invented: string[] = [];
    for (const file of [...sources(join(ROOT, 'orchestrator')), ...sources(join(ROOT, 'agent-node'))]) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/'((?:seat|turn|protocol|policy|script|internal|connection)\/[a-z_]+)'/g)) {
        if (!ALL_ERROR_CODES.has(m[1]!)) invented.push(`${relative(ROOT, file)}: ${m[1]}`);
      }
    }
    expect(invented).toEqual([]);
  });
});
