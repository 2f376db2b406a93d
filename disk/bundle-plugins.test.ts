import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { barrelsFlattened, FLATTENED_BARRELS, flattenedBarrelReads } from './bundle-plugins.js';

/** A fixture's source: written with FROM, so that the boundary check does not read it as this file's imports. */
const src = (text: string) => text.replaceAll(' FROM ', ' from ');

/** The plugin's onLoad, set up for a package at `root` (what esbuild would call for a .ts file). */
function loaderFor(root: string, dirs: readonly string[]): (path: string) => { contents: string } | undefined {
  let onLoad: ((args: { path: string }) => { contents: string } | undefined) | undefined;
  const build = { initialOptions: { absWorkingDir: root }, onStart() {}, onLoad: (_: unknown, f: typeof onLoad) => void (onLoad = f) };
  barrelsFlattened(dirs).setup(build as never);
  return (path) => onLoad!({ path });
}

describe('barrelsFlattened: imports from a barrel (protocol/index.js, run-dir/index.js, …) name the module that defines each name', () => {
  const root = mkdtempSync(join(tmpdir(), 'parley-barrel-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  for (const d of ['protocol', 'run-dir/sub', 'cli/commands']) mkdirSync(join(root, d), { recursive: true });
  writeFileSync(join(root, 'protocol', 'index.ts'), "export * from './frames.js';\nexport * from './codes.js';\n");
  writeFileSync(join(root, 'protocol', 'frames.ts'), "export const Frame = 1;\nexport type Frame = number;\nexport function decode(): void {}\nexport interface Seen { a: 1 }\n");
  writeFileSync(join(root, 'protocol', 'codes.ts'), 'const T = { ErrorCode: 1, RunCode: 2 };\nexport const { ErrorCode, RunCode } = T;\n');
  // A barrel of named re-exports, one renamed, and a barrel inside it.
  writeFileSync(join(root, 'run-dir', 'index.ts'), src("export { RunPaths, type Paths } FROM './paths.js';\nexport { inner as outer } FROM './x.js';\nexport * FROM './sub/index.js';\n"));
  writeFileSync(join(root, 'run-dir', 'sub', 'index.ts'), src("export { deep } FROM './deep.js';\n"));
  const load = loaderFor(root, ['protocol', 'run-dir']);

  it('rewrites named imports, types and aliases included, on the same lines', () => {
    const file = join(root, 'cli', 'commands', 'x.ts');
    const source = src("import { Frame,\n  decode as d, type Seen,\n  ErrorCode } FROM '../../protocol/index.js';\nconsole.log(Frame, d, ErrorCode);\n");
    writeFileSync(file, source);
    const out = load(file)!.contents;
    expect(out).toBe(src("import { Frame, decode as d, type Seen } FROM '../../protocol/frames.js'; import { ErrorCode } FROM '../../protocol/codes.js';\n\n\nconsole.log(Frame, d, ErrorCode);\n"));
    expect(out.split('\n')).toHaveLength(source.split('\n').length);
  });

  it("places the names a barrel re-exports by name, and a barrel's inside it; re-exports from a barrel too", () => {
    const file = join(root, 'cli', 'w.ts');
    writeFileSync(file, src("import { RunPaths, type Paths, deep } FROM '../run-dir/index.js';\nexport { RunPaths as P } FROM '../run-dir/index.js';\n"));
    expect(load(file)!.contents).toBe(src("import { RunPaths, type Paths } FROM '../run-dir/paths.js'; import { deep } FROM '../run-dir/sub/deep.js';\nexport { RunPaths as P } FROM '../run-dir/paths.js';\n"));
  });

  it('leaves a statement with a name it cannot place (unknown, renamed in the barrel), other barrels and files without one as they are', () => {
    const file = join(root, 'cli', 'y.ts');
    const source = src("import { Frame, Unknown } FROM '../protocol/index.js';\nimport { outer } FROM '../run-dir/index.js';\nimport { X } FROM '../scenarios/index.js';\nimport * as P FROM '../protocol/index.js';\n");
    writeFileSync(file, source);
    expect(load(file)).toBeUndefined();
    writeFileSync(join(root, 'cli', 'z.ts'), src("import { Frame } FROM '../protocol/frames.js';\n"));
    expect(load(join(root, 'cli', 'z.ts'))).toBeUndefined();
  });

  it('the CLI build tracks every barrel it flattens and every module they list', () => {
    const reads = flattenedBarrelReads(root);
    expect(reads).toEqual(['protocol/index.ts', 'protocol/frames.ts', 'protocol/codes.ts', 'run-dir/index.ts', 'run-dir/paths.ts', 'run-dir/x.ts', 'run-dir/sub/index.ts', 'run-dir/sub/deep.ts']);
    expect(FLATTENED_BARRELS).toContain('protocol');
  });
});
