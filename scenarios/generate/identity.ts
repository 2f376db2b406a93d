/**
 * A generated scenario's identity fields. A generated scenario is its own environment with its own
 * character pair, so its one id serves as environment and pair id too.
 */
export function generatedIdentity(p: { id: string; codename?: string | undefined; source: string; subsets: string[] }) {
  return { id: p.id, envId: p.id, pairId: p.id, codename: p.codename, source: p.source, subsets: p.subsets };
}
