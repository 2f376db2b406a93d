import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { packagePath } from '../../disk/package-root.js';
import { runtimeEntries, SNAPSHOT_DEFERRED_SOURCE, snapshotDeferred } from './snapshot-deferred.js';

describe('the snapshot plugins as bundle-cache inputs', () => {
  it('track the file that holds their code, by its path from the package root', () => {
    // A rename that left the path behind would drop the plugins' code from the cache's inputs silently.
    expect(packagePath(SNAPSHOT_DEFERRED_SOURCE)).toBe(fileURLToPath(new URL('./snapshot-deferred.ts', import.meta.url)));
    expect(existsSync(packagePath(SNAPSHOT_DEFERRED_SOURCE))).toBe(true);
    expect(snapshotDeferred.reads()).toEqual([SNAPSHOT_DEFERRED_SOURCE]);
    expect(runtimeEntries.reads()).toEqual([SNAPSHOT_DEFERRED_SOURCE]);
  });
});
