import { readFileSync } from 'node:fs';
import { packagePath } from './package-root.js';

let known: string | undefined;

/** Parley's version (package.json), read once a process: written into exports, packs and report footers. */
export function packageVersion(): string {
  if (known === undefined) {
    try {
      known = (JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version: string }).version;
    } catch {
      known = 'unknown';
    }
  }
  return known;
}
