// @ts-check
/**
 * What a cached bundle was built from, as its manifest lists it (disk/bundle-cache.js): one entry per file,
 * [path relative to the package root, size, mtimeMs, sha1]. Plain JavaScript, as the cache.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** node:crypto loads when a hash is needed, not with the module (see disk/bundle-cache.js). */
const nodeRequire = createRequire(import.meta.url);
const crypto = () => /** @type {typeof import('node:crypto')} */ (nodeRequire('node:crypto'));

/** @param {string | Buffer} text */
const sha1Of = (text) => crypto().createHash('sha1').update(text).digest('hex');

/** @param {string} path */
export const sha1 = (path) => sha1Of(readFileSync(path));

/**
 * Tracked files whose code this process holds (it imported them): a bundle is built with the text loaded, not
 * the one on disk, so a long-lived process (a `serve`, a worker) that outlived an upgrade or an edit must not
 * describe its bundle by the disk's text. By absolute path; the text is read as this module loads (the
 * plugins' module is imported before it: disk/bundle-cache.js imports it first), from the package root as
 * disk/package-root.ts finds it: this code may run from a bundle (the CLI's, checked current as it started).
 * @returns {Map<string, Buffer>}
 */
function heldCode() {
  const held = new Map();
  try {
    const root = process.env.PARLEY_PACKAGE_ROOT || fileURLToPath(new URL('../', import.meta.url));
    const plugins = resolve(root, 'disk', 'bundle-plugins.js');
    held.set(plugins, readFileSync(plugins));
  } catch {
    // No sources beside this code (a CommonJS bundle has no module URL and no root was declared): none held.
  }
  return held;
}
const HELD_CODE = heldCode();

/**
 * The manifest entry of `rel`. For a file whose code this process holds (HELD_CODE), the sha1 of the text
 * held; if the disk has another, size and mtime are -1, so no check takes it as unchanged: every use hashes
 * it, finds the difference and builds again.
 * @param {string} root
 * @param {string} rel
 * @returns {[string, number, number, string]}
 */
export function inputEntry(root, rel) {
  const path = join(root, rel);
  const st = statSync(path);
  const onDisk = sha1(path);
  const held = HELD_CODE.get(resolve(path));
  if (held === undefined) return [rel, st.size, st.mtimeMs, onDisk];
  const bundled = sha1Of(held);
  return bundled === onDisk ? [rel, st.size, st.mtimeMs, onDisk] : [rel, -1, -1, bundled];
}

/**
 * The package.json of the installed package a dependency's file `rel` (relative to root) belongs to: the
 * folder after the last node_modules in its path (`@scope/name` for a scoped one), wherever the install put
 * it (under the root in a clone, hoisted beside parley when parley is itself a dependency); outside any
 * node_modules (a linked package), the nearest package.json above the file. Relative to root; null if none.
 * An install rewrites it (the version, npm's fields), so it stands for the package's thousand files.
 * @param {string} root
 * @param {string} rel
 * @returns {string | null}
 */
export function dependencyManifest(root, rel) {
  const parts = join(root, rel).split(sep);
  const at = parts.lastIndexOf('node_modules');
  if (at >= 0 && at + 2 < parts.length) {
    const depth = parts[at + 1]?.startsWith('@') ? 2 : 1;
    return relative(root, [...parts.slice(0, at + 1 + depth), 'package.json'].join(sep));
  }
  for (let d = dirname(join(root, rel)); d !== dirname(d); d = dirname(d)) if (existsSync(join(d, 'package.json'))) return relative(root, join(d, 'package.json'));
  return null;
}
