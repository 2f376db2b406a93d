import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO, tempDir } from './helpers/processes.js';

/**
 * The agent snapshot's first import (agent-node/snapshot-build-guard.ts) makes a `crypto.randomUUID` call at
 * build time fail the build: Node 20 keeps the bytes behind randomUUID in the heap, so a blob built after
 * one call would give every process started from it the same UUIDs. Real `node --build-snapshot` runs of a
 * two-line entry: with the call the build fails with the guard's message; without it, it builds, and two
 * processes from the blob draw different UUIDs once the guard has been undone.
 */
describe('the snapshot build guard', () => {
  const tmp = tempDir('snapshot-guard');
  afterAll(() => tmp.remove());

  async function buildSnapshot(name: string, body: string) {
    const entry = join(tmp.path, `${name}.ts`);
    const script = join(tmp.path, `${name}.cjs`);
    const blob = join(tmp.path, `${name}.blob`);
    await build({
      stdin: { contents: body, resolveDir: join(REPO, 'agent-node'), loader: 'ts', sourcefile: entry },
      bundle: true, platform: 'node', format: 'cjs', outfile: script, logLevel: 'silent',
    });
    const built = spawnSync(process.execPath, ['--snapshot-blob', blob, '--build-snapshot', script], { encoding: 'utf8', timeout: 60_000 });
    return { built, blob };
  }

  it('fails a build that calls randomUUID or randomInt, and leaves processes their own draws otherwise', async () => {
    const bad = await buildSnapshot('bad', "import './snapshot-build-guard.js';\nimport crypto from 'node:crypto';\ncrypto.randomUUID();\n");
    expect(bad.built.status).not.toBe(0);
    expect(bad.built.stderr).toContain('crypto.randomUUID() called while the agent snapshot is built');
    const badInt = await buildSnapshot('bad-int', "import './snapshot-build-guard.js';\nimport crypto from 'node:crypto';\ncrypto.randomInt(1000);\n");
    expect(badInt.built.status).not.toBe(0);
    expect(badInt.built.stderr).toContain('crypto.randomInt() called while the agent snapshot is built');

    const good = await buildSnapshot('good', [
      "import { restoreRandomDraws } from './snapshot-build-guard.js';",
      "import crypto from 'node:crypto';",
      "import { startupSnapshot } from 'node:v8';",
      'startupSnapshot.setDeserializeMainFunction(() => { restoreRandomDraws(); console.log(crypto.randomUUID(), crypto.randomInt(2 ** 40)); });',
    ].join('\n'));
    expect(good.built.status, good.built.stderr).toBe(0);
    const uuids = [1, 2].map(() => spawnSync(process.execPath, ['--snapshot-blob', good.blob], { encoding: 'utf8', timeout: 30_000 }).stdout.trim());
    expect(uuids[0]).toMatch(/^[0-9a-f-]{36} \d+$/);
    expect(uuids[0]).not.toBe(uuids[1]);
  });
});
