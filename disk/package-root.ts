import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The environment variable naming the package's root directory for a process whose code does not run
 * from the source tree: bin/parley.js runs the CLI from a bundle in a build cache (bin/cli-bundle.mjs),
 * and the supervisor starts agent processes from one (orchestrator/supervisor/worker-bundle.ts); both set it.
 */
export const PACKAGE_ROOT_ENV = 'PARLEY_PACKAGE_ROOT';

/**
 * This file's package root when it runs from the source tree (`disk/` sits at the root). Worked out only
 * when no root is declared: the agent's start-up snapshot is a CommonJS bundle, which has no module URL.
 */
const sourceRoot = () => fileURLToPath(new URL('../', import.meta.url));

/**
 * A file shipped with the package (prompt templates, the price table, package.json), found the same way
 * from the sources and from a bundle: by the root the starting process declared, else next to the sources.
 */
export function packagePath(...segments: string[]): string {
  return join(packageRoot(), ...segments);
}

/** The package root: declared by the starting process, else the sources' (what the supervisor hands a bundled agent process). */
export function packageRoot(): string {
  return resolve(process.env[PACKAGE_ROOT_ENV] || sourceRoot());
}
