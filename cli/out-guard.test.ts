import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { outDirProblem } from './out-guard.js';

const root = resolve(import.meta.dirname, '..');

describe('--out outside the tracked source tree', () => {
  it('refuses tracked folders and the root, accepts runs/ and folders elsewhere', () => {
    expect(outDirProblem(join(root, 'cli', 'x'))).toMatch(/inside the source folder cli\//);
    expect(outDirProblem(join(root, 'test'))).toMatch(/inside the source folder test\//);
    expect(outDirProblem(root)).toMatch(/is the source tree itself/);
    expect(outDirProblem(join(root, 'runs', 'r1'))).toBeNull();
    expect(outDirProblem(join(tmpdir(), 'parley-x'))).toBeNull();
  });

  it('sees through a symbolic link into a tracked folder, and accepts one into runs/', () => {
    const dir = mkdtempSync(join(tmpdir(), 'parley-out-guard-'));
    try {
      symlinkSync(join(root, 'docs'), join(dir, 'docs-link'));
      symlinkSync(root, join(dir, 'tree-link'));
      expect(outDirProblem(join(dir, 'docs-link', 'x'))).toMatch(/inside the source folder docs\//);
      expect(outDirProblem(join(dir, 'docs-link', 'a', 'b'))).toMatch(/inside the source folder docs\//);
      expect(outDirProblem(join(dir, 'tree-link'))).toMatch(/is the source tree itself/);
      expect(outDirProblem(join(dir, 'tree-link', 'runs', 'r1'))).toBeNull();
      expect(outDirProblem(join(dir, 'plain', 'x'))).toBeNull();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
