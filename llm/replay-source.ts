import { parsePolicySpec } from '../protocol/policy-spec.js';
import type { ClientConfig } from './create-client.js';

/**
 * Where a config's replay answers come from: `replayDir`, or the directory of a `replay:<dir>` spec.
 * Undefined for a live config. Its own file, reading the spec with the protocol's parser only, so that
 * run-dir/ (which lays out cassettes) and whatever imports it never load the provider registry and SDKs.
 */
export function replaySource(config: ClientConfig): string | undefined {
  if ('replayDir' in config && config.replayDir) return config.replayDir;
  if ('spec' in config) {
    const parsed = parsePolicySpec(config.spec);
    return parsed.ok && parsed.spec.kind === 'replay' ? parsed.spec.dir : undefined;
  }
  return config.provider === 'replay' ? config.model : undefined;
}
