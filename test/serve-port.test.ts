import { existsSync } from 'node:fs';
import { once } from 'node:events';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parley, tempDir } from './helpers/processes.js';

/** Issue 16, small items: a port in use is one clear line and leaves no run.json behind. */
describe('parley serve on a port in use', () => {
  const dir = tempDir('serve-port');
  afterAll(() => dir.remove());

  it('exits non-zero naming the address, and writes no run.json', async () => {
    const busy = createServer().listen(0, '127.0.0.1');
    await once(busy, 'listening');
    const port = (busy.address() as AddressInfo).port;
    try {
      const out = join(dir.path, 'run');
      const serve = parley(['serve', '--port', String(port), '--out', out, '--limit', '1']);
      const code = await serve.exited;
      expect(code).not.toBe(0);
      expect(serve.stderr.join('\n')).toContain(`parley serve: cannot listen on 127.0.0.1:${port}`);
      expect(existsSync(join(out, 'run.json'))).toBe(false);
      expect(existsSync(join(out, 'scenarios.jsonl'))).toBe(false);
    } finally {
      busy.close();
    }
  });
});
