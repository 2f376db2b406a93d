import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { parley, tempDir, within, type CliProcess } from './processes.js';
import { writeMinimalStudy } from './study-participant.js';

/** A running `parley study` server: its process, its study url's base, the organiser's key, its output folder. */
export interface StudyServer {
  readonly server: CliProcess;
  readonly base: string;
  readonly organiserKey: string;
  readonly out: string;
}

/**
 * Registers, in the calling `describe`, a `parley study` server of the minimal study (with `overrides`)
 * on port 0 with `extraArgs`, in a scratch folder named by `prefix`: started in beforeAll once it prints
 * its study and organiser urls; after the tests, stopped as a user stops it (SIGINT; killed if it has not
 * exited within 30 s) and the folder removed. Its fields are read once beforeAll has run.
 */
export function studyServerSuite(prefix: string, overrides: Record<string, string>, extraArgs: string[] = []): StudyServer {
  const dir = tempDir(prefix);
  const out = join(dir.path, 'out');
  let server: CliProcess | undefined;
  let base = '';
  let organiserKey = '';
  beforeAll(async () => {
    const file = writeMinimalStudy(dir.path, overrides);
    const p = (server = parley(['study', file, '--out', out, '--port', '0', ...extraArgs]));
    base = (await within(p.line(/^study url (http:\/\/127\.0\.0\.1:\d+)\//), 60_000, 'study url', [p]))[1]!;
    organiserKey = (await p.line(/^organiser url http:\/\/127\.0\.0\.1:\d+\/organiser#key=([0-9a-f]{32})$/))[1]!;
  }, 90_000);
  afterAll(async () => {
    if (server) {
      const p = server;
      p.child.kill('SIGINT');
      await within(p.exited, 30_000, 'study stops', [p]).catch(() => p.kill());
    }
    dir.remove();
  });
  return {
    get server() {
      if (!server) throw new Error('the study server starts in beforeAll');
      return server;
    },
    get base() {
      return base;
    },
    get organiserKey() {
      return organiserKey;
    },
    out,
  };
}
