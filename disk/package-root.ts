import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The environment variable naming the package's root directory for a process whose code does not run
 * from the source tree: the supervisor starts agent processes from a bundle kept in a build cache
 * (orchestrator/supervisor/worker-bundle.ts) and sets it for them.
 */
export const PACKAGE_ROOT_ENV = 'PARLEY_PACKAGE_ROOT';

/** This file's package root when it runs from the source tree (`disk/` sits at the root). */
const SOURCE_ROOT = fileURLToPath(new URL('../', import.meta.url));

/**
 * A file shipped with the package (prompt templates, the price table, package.json), found the same way
 * from the sources and from a bundle: by the root the starting process declared, else next to the sources.
 */
export function packagePath(...segments: string[]): string {
  return join(process.env[PACKAGE_ROOT_ENV] || SOURCE_ROOT, ...segments);
}

/** The package root as the sources see it (what the supervisor hands a bundled agent process). */
export function sourcePackageRoot(): string {
  return SOURCE_ROOT;
}
