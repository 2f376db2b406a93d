import { SOTOPIA_FILES } from '../import/sotopia.js';

/**
 * Where SOTOPIA's public profile files live by default: the benchmark profiles in
 * `sotopia-lab/sotopia-space` (folder `profiles/`) and the id lists (hard subset) in
 * `sotopia-lab/sotopia-pi`, each pinned to the commit the paper's data was taken from, so a fetch
 * today reads the same bytes as one a year from now.
 */
export const SOTOPIA_DEFAULT_SOURCES: Readonly<Record<keyof typeof SOTOPIA_FILES, string>> = {
  environments: 'https://raw.githubusercontent.com/sotopia-lab/sotopia-space/12c13d8/profiles/environment_profiles.jsonl',
  agents: 'https://raw.githubusercontent.com/sotopia-lab/sotopia-space/12c13d8/profiles/agent_profiles.jsonl',
  relationships: 'https://raw.githubusercontent.com/sotopia-lab/sotopia-space/12c13d8/profiles/relationship_profiles.jsonl',
  combos: 'https://raw.githubusercontent.com/sotopia-lab/sotopia-space/12c13d8/profiles/env_agent_combo_storages.jsonl',
  envIds: 'https://raw.githubusercontent.com/sotopia-lab/sotopia-pi/245fa7b/llm_self_train/resources/env_ids.json',
};

/** The benchmark's published sizes: what a complete download must hold. */
export const SOTOPIA_EXPECTED_COUNTS = { environments: 90, characters: 40, relationships: 120, pairs: 450 } as const;

/** Where each file comes from: the defaults, or `<base>/<file name>` for a `--from URL|DIR`. */
export function sotopiaSources(from?: string): Record<keyof typeof SOTOPIA_FILES, string> {
  if (from === undefined) return { ...SOTOPIA_DEFAULT_SOURCES };
  const base = from.replace(/\/+$/, '');
  const out = {} as Record<keyof typeof SOTOPIA_FILES, string>;
  for (const [key, name] of Object.entries(SOTOPIA_FILES) as [keyof typeof SOTOPIA_FILES, string][]) out[key] = `${base}/${name}`;
  return out;
}

/** Whether a source is fetched over HTTP(S) rather than read from a local directory. */
export function isUrl(source: string): boolean {
  return /^https?:\/\//i.test(source);
}
