import { readFileSync } from 'node:fs';
import { packagePath } from '../disk/package-root.js';

/** The client name and version an agent process reports in `seat.join`. */
export const CLIENT_NAME = 'parley-agent';

/** The package version, read once from package.json (no build step, so no inlined constant). */
export const CLIENT_VERSION: string = (() => {
  try {
    const pkg = JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
  } catch {
    return '0.0.0';
  }
})();
