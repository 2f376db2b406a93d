/**
 * Imported first by the start-up snapshot's entry (snapshot-entry.ts): while the snapshot is built,
 * `crypto.randomUUID` throws. Node 20 draws its UUIDs from a buffer of random bytes that it fills on first
 * use and keeps in the heap, so one call at build time would put that buffer in the blob, and every agent
 * process started from it would hand out the same UUIDs. A module that calls it at load time fails the
 * build instead (the pool then starts its processes from the plain bundle); `restoreRandomUuid` puts the
 * real function back in each process after deserialisation, where its buffer is the process's own.
 */
import crypto from 'node:crypto';
import { startupSnapshot } from 'node:v8';

const realRandomUuid = crypto.randomUUID;

if (startupSnapshot.isBuildingSnapshot()) {
  crypto.randomUUID = () => {
    throw new Error('crypto.randomUUID() called while the agent snapshot is built: its random buffer would be shared by every process');
  };
}

/** Called first in the deserialised process. */
export function restoreRandomUuid(): void {
  crypto.randomUUID = realRandomUuid;
}
