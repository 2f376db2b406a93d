import { recordedDefinition, type ProtocolDefinition } from '../simulation/index.js';
import type { RunDir } from './run-dir.js';

/**
 * The definition of the protocol a run directory followed: run.json's resolved protocol, else the
 * protocol its config asked for, else the default (runs from before protocols). The evaluator reads its
 * scoring defaults (MutualFriends success rule, beside-the-paper section) from it, never the name.
 */
export function runProtocol(run: RunDir): ProtocolDefinition {
  return recordedDefinition({ protocol: run.run?.protocol, config: run.run?.config });
}
