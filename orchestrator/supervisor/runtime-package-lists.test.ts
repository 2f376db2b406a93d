import { describe, expect, it } from 'vitest';
import { KEEP_EXTERNAL } from '../../disk/bundle-cache.js';
import { CLI_RUNTIME_PACKAGES } from '../../disk/cli-runtime-packages.js';
import { RUNTIME_PACKAGES } from './snapshot-deferred.js';

/**
 * The CLI (disk/cli-runtime-packages.js) and the agent snapshot (RUNTIME_PACKAGES) each keep packages out of
 * their bundle and load them from files beside it. The two lists differ on purpose (snapshot-deferred.ts says
 * why), and only there: a package one list gains, or a module of a shared package one list gains, fails here
 * until the other follows or the difference is written down below with its reason.
 */
const rootOf = (specifier: string): string => /^(@[^/]+\/)?[^/]+/.exec(specifier)?.[0] ?? specifier;

/** Package root → every specifier a list keeps out (however it groups them into files). */
const byRoot = (list: Readonly<Record<string, readonly string[]>>): Map<string, string[]> => {
  const roots = new Map<string, string[]>();
  for (const specifier of Object.values(list).flat()) roots.set(rootOf(specifier), [...(roots.get(rootOf(specifier)) ?? []), specifier].sort());
  return roots;
};

/** Kept out of the CLI bundle only: no agent process loads them (yaml: only the CLI reads files a user edits). */
const CLI_ONLY = ['engine.io', 'socket.io', 'socket.io-parser', 'tar', 'yaml'];
/** In the snapshot's list only: external to every bundle, so the CLI resolves it from node_modules, but a snapshot's `require` knows only built-ins. */
const SNAPSHOT_ONLY = ['ioredis'];

describe('the CLI\'s and the agent snapshot\'s runtime package lists', () => {
  const cli = byRoot(CLI_RUNTIME_PACKAGES);
  const snapshot = byRoot(RUNTIME_PACKAGES);

  it('keep the same packages out, but for the differences written down', () => {
    expect([...cli.keys()].filter((r) => !snapshot.has(r)).sort()).toEqual(CLI_ONLY);
    expect([...snapshot.keys()].filter((r) => !cli.has(r)).sort()).toEqual(SNAPSHOT_ONLY);
    for (const root of SNAPSHOT_ONLY) expect(KEEP_EXTERNAL).toContain(root);
  });

  it('list the same modules of a package both keep out (the SDKs\' error classes are one copy in each)', () => {
    const shared = [...cli.keys()].filter((r) => snapshot.has(r));
    expect(shared.sort()).toEqual(['@mistralai/mistralai', 'openai', 'rate-limiter-flexible']);
    for (const root of shared) expect({ root, specifiers: snapshot.get(root) }).toEqual({ root, specifiers: cli.get(root) });
  });
});
