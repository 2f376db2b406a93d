import { describe, expect, it } from 'vitest';
import { jsonlLines } from './jsonl-lines.js';

describe('the one torn-line rule', () => {
  it('keeps complete lines with their numbers, skips blank ones, and calls the bytes after the last newline torn', () => {
    expect(jsonlLines('{"a":1}\n\n{"b":2}\n{"c":')).toEqual({ lines: [{ line: 1, text: '{"a":1}' }, { line: 3, text: '{"b":2}' }], tornBytes: 5, tornLine: 4 });
  });

  it('a tail that happens to parse is torn too: every writer ends a value with a newline', () => {
    const read = jsonlLines('{"a":1}\n{"b":2}');
    expect(read.lines.map((l) => l.text)).toEqual(['{"a":1}']);
    expect(read).toMatchObject({ tornBytes: 7, tornLine: 2 });
  });

  it('a whole file has no torn tail; an empty file has no lines', () => {
    expect(jsonlLines('{"a":1}\n')).toEqual({ lines: [{ line: 1, text: '{"a":1}' }], tornBytes: 0, tornLine: null });
    expect(jsonlLines('')).toEqual({ lines: [], tornBytes: 0, tornLine: null });
  });
});
