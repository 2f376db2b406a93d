import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RunPaths, rewriteEpisodes } from '../run-dir/index.js';
import { loadRunDir } from './run-dir.js';
import { episode, mfScenario, writeRunDir } from './testing/fixtures.js';
import { fixtureLock } from '../run-dir/testing/held-lock.js';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

describe('run directory', () => {
  it('names the file, line and field of a bad record', async () => {
    const mf = mfScenario();
    const dir = await writeRunDir([mf], [episode({ scenario: mf })]);
    dirs.push(dir);
    const file = path.join(dir, 'episodes.jsonl');
    const good = (await readFile(file, 'utf8')).trim();
    const bad = JSON.parse(good);
    bad.mode = 'telepathy';
    await writeFile(file, `${good}\n${JSON.stringify(bad)}\n`);
    const r = await loadRunDir(dir);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe('run/bad_record');
      expect(r.error.message).toContain('episodes.jsonl:2');
      expect(r.error.message).toContain('field mode');
    }
    await writeFile(file, `${good}\n{oops\n`);
    const r2 = await loadRunDir(dir);
    expect(!r2.ok && r2.error.code).toBe('run/bad_json');
  });

  it('says so when the directory holds no episodes.jsonl', async () => {
    const r = await loadRunDir('/nonexistent/run');
    expect(r).toMatchObject({ ok: false, error: { code: 'run/missing_file' } });
  });

  it('rewrites episodes atomically and keeps fields it does not know', async () => {
    const mf = mfScenario();
    const dir = await writeRunDir([mf], [{ ...episode({ scenario: mf }), futureField: { x: 1 } } as never]);
    dirs.push(dir);
    const r = await loadRunDir(dir);
    if (!r.ok) throw new Error(r.error.message);
    const row = { ...r.run.episodes[0]!.raw, evaluation: { v: 1 } };
    rewriteEpisodes(fixtureLock(new RunPaths(dir)), [row]);
    const back = JSON.parse((await readFile(path.join(dir, 'episodes.jsonl'), 'utf8')).trim());
    expect(back.futureField).toEqual({ x: 1 });
    expect(back.evaluation).toEqual({ v: 1 });
  });
});
