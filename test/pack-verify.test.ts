import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { create, extract } from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parley, tempDir } from './helpers/processes.js';
import { botRunFixture } from './helpers/run-fixture.js';

/**
 * Issue 38, contract 3, as a user meets it: a run made from an experiment file that names its scenario
 * file and rubric by absolute paths, packed with `parley pack`, checked with `parley verify`, then changed
 * by one byte; the packed card and run.json name no folder of this machine, and `parley report` on the
 * unpacked folder writes the report the pack holds.
 */
const work = tempDir('parley-pack-');
const out = (...p: string[]) => path.join(work.path, ...p);

async function run(args: string[], cwd?: string) {
  const cli = parley(args, cwd ? { cwd } : {});
  const code = await cli.exited;
  return { code, stdout: cli.stdout.join('\n'), stderr: cli.stderr.join('\n') };
}

beforeAll(async () => {
  // A scenario file of the project's own: the built-in set's first scenario, written out by a first run (the
  // one-episode bot run other files use as input, built once for all: helpers/run-fixture.ts). One scenario
  // is enough for what is checked here (the pack's files and paths), and makes the run below 2 episodes, not 4.
  copyFileSync(path.join(await botRunFixture(['--modes', 'agents', '--limit', '1']), 'scenarios.jsonl'), out('S.jsonl'));
  writeFileSync(out('warmth.yaml'), 'name: warmth\ndimensions:\n  - name: warmth\n    range: [0, 5]\n    criteria: How warm the character is.\n');
  writeFileSync(out('exp.yaml'), `scenarios: ${out('S.jsonl')}\nmodes: [agents, mindreaders]\nout: ${out('run1')}\nrubric: ${out('warmth.yaml')}\n`);
  const made = await run(['run', '--experiment', out('exp.yaml')]);
  expect(made.code, made.stderr).toBe(0);
  expect(readFileSync(out('run1', 'run.json'), 'utf8')).toContain(work.path);
});

afterAll(() => work.remove());

describe('parley pack and parley verify (issue 38, contract 3)', () => {
  it('packs, verifies, names the file one changed byte is in, and leaves no absolute path in the card or run.json', async () => {
    const pack = out('run1.tar.gz');
    const packed = await run(['pack', out('run1'), '--out', pack, '--experiment', out('exp.yaml')]);
    expect(packed.code, packed.stderr).toBe(0);
    expect(packed.stderr).toBe('');
    const ok = await run(['verify', pack]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/files match the manifest \(run run1, packed by Parley \d+\.\d+\.\d+\)/);

    const un = out('unpacked');
    mkdirSync(un);
    await extract({ file: pack, cwd: un });
    const root = path.join(un, 'run1');
    const manifest = JSON.parse(readFileSync(path.join(root, 'manifest.json'), 'utf8')) as { parley: string; files: { path: string; sha256: string }[] };
    const files = manifest.files.map((f) => f.path);
    for (const f of ['run.json', 'episodes.jsonl', 'scenarios.jsonl', 'report.md', 'report.html', 'card.md', 'inputs/scenarios/S.jsonl', 'inputs/rubrics/warmth.yaml', 'inputs/experiment/exp.yaml']) expect(files).toContain(f);
    expect(files.some((f) => f.startsWith('ledgers/'))).toBe(true);
    expect(files.every((f) => !path.isAbsolute(f) && !f.split('/').includes('..'))).toBe(true);
    for (const f of manifest.files) expect(f.sha256).toMatch(/^[0-9a-f]{64}$/);

    // No folder of this machine in the card or run.json: not the run's, not the work folder, not home or cwd.
    for (const f of ['card.md', 'run.json']) {
      const text = readFileSync(path.join(root, f), 'utf8');
      for (const local of [work.path, os.homedir(), process.cwd(), os.tmpdir()]) expect(text, `${f} names ${local}`).not.toContain(local);
      expect(text).not.toMatch(/"\/[^"]*"/);
    }
    const runJson = JSON.parse(readFileSync(path.join(root, 'run.json'), 'utf8')) as { config: { scenarios: string; rubric: string; out: string } };
    expect(runJson.config).toMatchObject({ scenarios: 'inputs/scenarios/S.jsonl', rubric: 'inputs/rubrics/warmth.yaml', out: '.' });

    // `parley report` on the unpacked folder writes the report the pack holds.
    const packedMd = readFileSync(path.join(root, 'report.md'), 'utf8');
    const packedHtml = readFileSync(path.join(root, 'report.html'), 'utf8');
    const rep = await run(['report', root]);
    expect(rep.code, rep.stderr).toBe(0);
    expect(readFileSync(path.join(root, 'report.md'), 'utf8')).toBe(packedMd);
    expect(readFileSync(path.join(root, 'report.html'), 'utf8')).toBe(packedHtml);
    expect(packedMd).toMatch(new RegExp(`How to cite: Parley ${manifest.parley.replace(/\./g, '\\.')} .*Misleading Success of Simulating Social Interactions`));

    // One changed byte in one file of the pack: verify fails and names that file.
    const episodes = path.join(root, 'episodes.jsonl');
    const bytes = readFileSync(episodes);
    bytes[20] = bytes[20]! ^ 1;
    writeFileSync(episodes, bytes);
    const tampered = out('tampered.tar.gz');
    await create({ gzip: true, file: tampered, cwd: un, portable: true }, ['run1']);
    const bad = await run(['verify', tampered]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('run1/episodes.jsonl: changed');

    // One flipped byte in the compressed file itself: still a failure, naming what it damaged.
    const raw = readFileSync(pack);
    raw[Math.floor(raw.length / 2)] = raw[Math.floor(raw.length / 2)]! ^ 1;
    writeFileSync(out('flipped.tar.gz'), raw);
    const flipped = await run(['verify', out('flipped.tar.gz')]);
    expect(flipped.code).toBe(1);
    expect(flipped.stderr).toMatch(/parley verify: run1\/\S+: (changed|the archive is damaged)/);
  });

  it('refuses a pack written inside the run, and a missing --out, writing nothing', async () => {
    const inside = await run(['pack', out('run1'), '--out', out('run1', 'x.tar.gz')]);
    expect(inside.code).toBe(2);
    expect(inside.stderr).toContain('inside the run directory');
    const none = await run(['pack', out('run1')]);
    expect(none.code).toBe(2);
  });
});
