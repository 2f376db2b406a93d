import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { readJsonlFile } from './jsonl-file.js';
import { tempRunPaths } from './testing/temp-paths.js';

const Row = z.object({ n: z.number() });

describe('readJsonlFile (scenarios.jsonl, ledgers): the same torn-line rule as episodes.jsonl', () => {
  const dirs = tempRunPaths('jsonl');

  it('reads every complete line and leaves a torn tail out, saying how many bytes', () => {
    const file = join(dirs().dir, 'ledger.jsonl');
    writeFileSync(file, '{"n":1}\n\n{"n":2}\n{"n":');
    expect(readJsonlFile(file, Row)).toEqual({ ok: true, values: [{ n: 1 }, { n: 2 }], tornBytes: 5 });
  });

  it('names the line and field of a bad complete line', () => {
    const file = join(dirs().dir, 'ledger.jsonl');
    writeFileSync(file, '{"n":1}\n{"n":"x"}\n');
    expect(readJsonlFile(file, Row)).toMatchObject({ ok: false, code: 'run/bad_record', message: expect.stringContaining(`${file}:2: field n`) });
    writeFileSync(file, 'nope\n{"n":1}\n');
    expect(readJsonlFile(file, Row)).toMatchObject({ ok: false, code: 'run/bad_json', message: expect.stringContaining(`${file}:1: not JSON`) });
  });
});
