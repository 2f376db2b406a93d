import { createRequire } from 'node:module';
import { PACKAGE_ROOT_ENV, packagePath, packageRoot } from '../../disk/package-root.js';

/**
 * The agent process the supervisor starts, as a declared dependency rather than a path into another
 * module's sources: the package's named entry `#agent-entry` (package.json "imports"), a TypeScript
 * file that speaks the typed IPC protocol of protocol/worker-ipc.ts (WorkerToParent / ParentToWorker).
 * The orchestrator never imports it (test/boundaries/rules.ts); it resolves and runs it.
 */
export const AGENT_ENTRY_NAME = '#agent-entry';

/**
 * Absolute path of the agent process entry, resolved through package.json (from the package root, not
 * this file: a bundled CLI runs from a build cache under node_modules, outside the package's scope).
 */
export function agentEntry(): string {
  return createRequire(packagePath('package.json')).resolve(AGENT_ENTRY_NAME);
}

/**
 * Environment an agent process is started with: the parent's, plus where the package's files are, so a
 * process started from a bundle in a build cache finds prompt templates, prices and package.json
 * (disk/package-root.ts) without any rewriting of its code; without NODE_EXTRA_CA_CERTS when `tlsFree`.
 */
export function agentEnv(base: NodeJS.ProcessEnv, opts: { tlsFree?: boolean } = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base, [PACKAGE_ROOT_ENV]: base[PACKAGE_ROOT_ENV] || packageRoot() };
  // A process that never opens TLS does not need the extra certificates Node parses at every start
  // (~60–100 ms of CPU each with a system bundle): llm/tls-need.ts decides, the pool says.
  if (opts.tlsFree) delete env[EXTRA_CA_ENV];
  return env;
}

/** Node's variable naming extra CA certificates, read and parsed once as a process starts. */
export const EXTRA_CA_ENV = 'NODE_EXTRA_CA_CERTS';
