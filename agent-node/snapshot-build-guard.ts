/**
 * Imported first by the start-up snapshot's entry (snapshot-entry.ts): while the snapshot is built,
 * `crypto.randomUUID` and `crypto.randomInt` throw. Node 20 serves both from a buffer of random bytes that it
 * fills on first use and keeps in the heap, so one call at build time would put that buffer in the blob, and
 * every agent process started from it would draw the same UUIDs (or integers). A module that calls one at load
 * time fails the build instead (the pool then starts its processes from the plain bundle);
 * `restoreRandomDraws` puts the real functions back in each process after deserialisation, where their
 * buffers are the process's own. (`Math.random` and `crypto.randomBytes` are reseeded or drawn per call by
 * Node itself.)
 */
import crypto from 'node:crypto';
import { startupSnapshot } from 'node:v8';

const GUARDED = ['randomUUID', 'randomInt'] as const;
const real = { randomUUID: crypto.randomUUID, randomInt: crypto.randomInt };

if (startupSnapshot.isBuildingSnapshot()) {
  for (const name of GUARDED) {
    (crypto as unknown as Record<string, unknown>)[name] = () => {
      throw new Error(`crypto.${name}() called while the agent snapshot is built: its random buffer would be shared by every process`);
    };
  }
}

/** Called first in the deserialised process. */
export function restoreRandomDraws(): void {
  crypto.randomUUID = real.randomUUID;
  crypto.randomInt = real.randomInt;
}
