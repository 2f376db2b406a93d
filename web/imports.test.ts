import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const WEB = fileURLToPath(new URL('.', import.meta.url));

/** The pages import only protocol/ and seat-client/ files, the seat capabilities of simulation/ and socket.io-client: never the orchestrator or another module. */
describe('web pages import boundary', () => {
  it('seat/, annotate/, watch/ and shared/ import only ../../protocol/<file>.js, ../../seat-client/<file>.js, ../../simulation/seat-capabilities.js, socket.io-client, ../shared/<file>.js and their own files', () => {
    const offending: string[] = [];
    for (const page of ['seat', 'annotate', 'watch', 'shared']) {
      for (const f of readdirSync(join(WEB, page)).filter((n) => n.endsWith('.ts'))) {
        const text = readFileSync(join(WEB, page, f), 'utf8');
        for (const m of text.matchAll(/from\s+'([^']+)'/g)) {
          const spec = m[1]!;
          const ok = spec === 'socket.io-client' || /^\.\/[\w-]+\.js$/.test(spec) || /^\.\.\/shared\/[\w-]+\.js$/.test(spec) || /^\.\.\/\.\.\/(protocol|seat-client)\/[\w-]+\.js$/.test(spec) || spec === '../../simulation/seat-capabilities.js';
          if (!ok || spec === '../../protocol/index.js' || spec === '../../protocol/decode.js') offending.push(`${page}/${f}: ${spec}`);
        }
      }
    }
    expect(offending).toEqual([]);
  });
});
