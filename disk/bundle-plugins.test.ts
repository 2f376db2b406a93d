import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { protocolBarrelFlattened } from './bundle-plugins.js';

/** A fixture's source: written with FROM, so that the boundary check does not read it as this file's imports. */
const src = (text: string) => text.replaceAll(' FROM ', ' from ');

/** The plugin's onLoad, set up for a package at `root` (what esbuild would call for a .ts file). */
function loaderFor(root: string): (path: string) => { contents: string } | undefined {
  let onLoad: ((args: { path: string }) => { contents: string } | undefined) | undefined;
  const build = { initialOptions: { absWorkingDir: root }, onStart() {}, onLoad: (_: unknown, f: typeof onLoad) => void (onLoad = f) };
  protocolBarrelFlattened.setup(build as never);
  return (path) => onLoad!({ path });
}

describe('protocolBarrelFlattened: imports from protocol/index.js name the module that defines each name', () => {
  const root = mkdtempSync(join(tmpdir(), 'parley-barrel-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  mkdirSync(join(root, 'protocol'));
  mkdirSync(join(root, 'cli', 'commands'), { recursive: true });
  writeFileSync(join(root, 'protocol', 'index.ts'), "export * from './frames.js';\nexport * from './codes.js';\n");
  writeFileSync(join(root, 'protocol', 'frames.ts'), "export const Frame = 1;\nexport type Frame = number;\nexport function decode(): void {}\nexport interface Seen { a: 1 }\n");
  writeFileSync(join(root, 'protocol', 'codes.ts'), 'const T = { ErrorCode: 1, RunCode: 2 };\nexport const { ErrorCode, RunCode } = T;\n');
  const load = loaderFor(root);

  it('rewrites named imports, types and aliases included, on the same lines', () => {
    const file = join(root, 'cli', 'commands', 'x.ts');
    const source = src("import { Frame,\n  decode as d, type Seen,\n  ErrorCode } FROM '../../protocol/index.js';\nconsole.log(Frame, d, ErrorCode);\n");
    writeFileSync(file, source);
    const out = load(file)!.contents;
    expect(out).toBe(src("import { Frame, decode as d, type Seen } FROM '../../protocol/frames.js'; import { ErrorCode } FROM '../../protocol/codes.js';\n\n\nconsole.log(Frame, d, ErrorCode);\n"));
    expect(out.split('\n')).toHaveLength(source.split('\n').length);
  });

  it('leaves a statement with a name it cannot place, other barrels and files without the barrel as they are', () => {
    const file = join(root, 'cli', 'y.ts');
    const source = src("import { Frame, Unknown } FROM '../protocol/index.js';\nimport { X } FROM '../run-dir/index.js';\nimport * as P FROM '../protocol/index.js';\n");
    writeFileSync(file, source);
    expect(load(file)!.contents).toBe(source);
    writeFileSync(join(root, 'cli', 'z.ts'), src("import { Frame } FROM '../protocol/frames.js';\n"));
    expect(load(join(root, 'cli', 'z.ts'))).toBeUndefined();
  });
});
