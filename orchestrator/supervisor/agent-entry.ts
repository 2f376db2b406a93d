import { createRequire } from 'node:module';
import { PACKAGE_ROOT_ENV, sourcePackageRoot } from '../../disk/package-root.js';

/**
 * The agent process the supervisor starts, as a declared dependency rather than a path into another
 * module's sources: the package's named entry `#agent-entry` (package.json "imports"), a TypeScript
 * file that speaks the typed IPC protocol of protocol/worker-ipc.ts (WorkerToParent / ParentToWorker).
 * The orchestrator never imports it (test/boundaries/rules.ts); it resolves and runs it.
 */
export const AGENT_ENTRY_NAME = '#agent-entry';

/** Absolute path of the agent process entry, resolved through package.json. */
export function agentEntry(): string {
  return createRequire(import.meta.url).resolve(AGENT_ENTRY_NAME);
}

/**
 * Environment an agent process is started with: the parent's, plus where the package's files are, so a
 * process started from a bundle in a build cache finds prompt templates, prices and package.json
 * (disk/package-root.ts) without any rewriting of its code.
 */
export function agentEnv(base: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...base, [PACKAGE_ROOT_ENV]: base[PACKAGE_ROOT_ENV] || sourcePackageRoot() };
}
