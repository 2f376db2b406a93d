import * as z from 'zod';
import type { ProtocolDefinition } from './definition.js';
import { PAPER } from './paper.js';
import { PARLEY } from './parley.js';

/** Every simulation protocol, one definition each; `--protocol` accepts their names. */
export const DEFINITIONS = [PAPER, PARLEY] as const satisfies readonly ProtocolDefinition[];

/** The names `--protocol` accepts, in declaration order. */
export const PROTOCOL_NAMES = DEFINITIONS.map((d) => d.name) as [(typeof DEFINITIONS)[number]['name'], ...(typeof DEFINITIONS)[number]['name'][]];
export const ProtocolName = z.enum(PROTOCOL_NAMES);
export type ProtocolName = z.infer<typeof ProtocolName>;

/**
 * The protocol of a run that names none and whose scenarios no definition claims, and the one a seat
 * assumes when its welcome names none.
 */
export const DEFAULT_DEFINITION: ProtocolDefinition = PARLEY;

const BY_NAME = new Map<string, ProtocolDefinition>(DEFINITIONS.map((d) => [d.name, d]));

/** The definition of a name; null for a name no definition has (a hand-edited or newer run.json). */
export function findDefinition(name: unknown): ProtocolDefinition | null {
  return typeof name === 'string' ? BY_NAME.get(name) ?? null : null;
}

/** The definition of a name, the default one when the name is absent or unknown (runs from before protocols). */
export function definitionOf(name: unknown): ProtocolDefinition {
  return findDefinition(name) ?? DEFAULT_DEFINITION;
}

/** The protocol a run follows when it names none: the first definition that claims its scenarios. */
export function claimedDefinition(scenarios: readonly { source?: string }[]): ProtocolDefinition {
  return DEFINITIONS.find((d) => d.claims(scenarios)) ?? DEFAULT_DEFINITION;
}

/**
 * The definition a run directory recorded: run.json's resolved `protocol.name`, else its config's
 * `protocol`, else the default (a run from before protocols ran Parley's). Values are untrusted.
 */
export function recordedDefinition(run: { protocol?: unknown; config?: unknown } | null | undefined): ProtocolDefinition {
  const resolved = run?.protocol && typeof run.protocol === 'object' ? findDefinition((run.protocol as { name?: unknown }).name) : null;
  if (resolved) return resolved;
  const config = run?.config && typeof run.config === 'object' ? (run.config as { protocol?: unknown }).protocol : undefined;
  return definitionOf(config);
}
