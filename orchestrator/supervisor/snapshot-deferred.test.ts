import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { packagePath } from '../../disk/package-root.js';
import { runtimeEntries, SNAPSHOT_DEFERRED_SOURCE, snapshotDeferred, snapshotPluginKeys } from './snapshot-deferred.js';

describe('the snapshot plugins as bundle-cache inputs', () => {
  it('track the file that holds their code, by its path from the package root', () => {
    // A rename that left the path behind would drop the plugins' code from the cache's inputs silently.
    expect(packagePath(SNAPSHOT_DEFERRED_SOURCE)).toBe(fileURLToPath(new URL('./snapshot-deferred.ts', import.meta.url)));
    expect(existsSync(packagePath(SNAPSHOT_DEFERRED_SOURCE))).toBe(true);
    expect(snapshotDeferred.reads()).toEqual([SNAPSHOT_DEFERRED_SOURCE]);
    expect(runtimeEntries.reads()).toEqual([SNAPSHOT_DEFERRED_SOURCE]);
  });

  it("key the code this process loaded: a process that loaded the file before an edit builds under its own key", () => {
    // `reads` records the file as a build finds it: without the loaded text in the keys, such a process left its
    // stale bundle under the name the edited sources address (reproduced: a tsx process editing the shim, then building).
    const source = readFileSync(packagePath(SNAPSHOT_DEFERRED_SOURCE), 'utf8');
    expect(snapshotPluginKeys(source)).toEqual({ deferred: snapshotDeferred.key, runtime: runtimeEntries.key });
    const edited = snapshotPluginKeys(source.replace("'module.exports = m;'", "'module.exports = m; m.x = 1;'"));
    expect(edited.deferred).not.toBe(snapshotDeferred.key);
    expect(edited.runtime).not.toBe(runtimeEntries.key);
  });
});
