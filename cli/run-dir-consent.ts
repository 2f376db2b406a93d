import type { PolicyConfig } from '../protocol/index.js';
import { normaliseEndpoint } from '../queue/job-guard.js';
import type { FlagSpecs } from './args.js';
import { UsageError } from './command.js';

/**
 * A run directory is untrusted input (it may come from a colleague, a shared drive, a download): what its
 * run.json says about *where* calls go and *which* secret they carry is never acted on without the user's
 * consent. A policy taken from a recorded run (a fork's parent, a replayed run) may keep its base URL, key
 * variable or prompt directory only when the user allows that value by flag, as `parley worker` does for
 * queue jobs; a seat whose policy the user gives anew (`--agent2 …`) takes nothing from the file.
 */
export interface RunDirConsent {
  /** Base URLs allowed (`normaliseEndpoint` form). */
  endpoints: readonly string[];
  /** Environment variable names allowed as key variables. */
  keyEnvs: readonly string[];
  /** Prompt directories and rubric files allowed, as written in run.json. */
  paths: readonly string[];
}

/** The consent flags, shared by every command that takes settings from a recorded run. */
export const CONSENT_FLAGS: FlagSpecs = {
  'allow-endpoint': { type: 'string', multiple: true, metavar: 'URL', describe: "use a recorded run's provider base URL URL (repeatable): a run directory is untrusted, so its endpoints are refused unless allowed" },
  'allow-key-env': { type: 'string', multiple: true, metavar: 'NAME', describe: "let a recorded run's policy read its key from $NAME (repeatable; default: refused, and OPENAI_API_KEY / MISTRAL_API_KEY are used only with the default endpoint)" },
  'allow-path': { type: 'string', multiple: true, metavar: 'PATH', describe: "let a recorded run's prompt directory or rubric file PATH be read (repeatable)" },
};

const list = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : typeof v === 'string' ? [v] : []);

/** The consent the user gave on the command line; a malformed value is a UsageError. */
export function consentFromFlags(flags: Record<string, unknown>): RunDirConsent {
  const endpoints = list(flags['allow-endpoint']).map((raw) => {
    const url = normaliseEndpoint(raw);
    if (url === null) throw new UsageError(`--allow-endpoint: '${raw.slice(0, 200)}' is not an http(s) URL without credentials, query or fragment`);
    return url;
  });
  const keyEnvs = list(flags['allow-key-env']);
  for (const name of keyEnvs) if (!/^[A-Za-z_][A-Za-z0-9_]{0,127}$/.test(name)) throw new UsageError(`--allow-key-env: '${name.slice(0, 80)}' is not an environment variable name`);
  return { endpoints, keyEnvs, paths: list(flags['allow-path']) };
}

/** A policy with the place it came from, e.g. `agent2` or `judge`. */
export interface RecordedPolicy {
  where: string;
  policy: Pick<PolicyConfig, 'baseURL' | 'apiKeyEnv' | 'promptDir' | 'reformat'> | undefined;
}

/**
 * The first use of a recorded setting the user did not allow, as one line naming the file, the field and
 * the flag that would allow it; null when every endpoint, key variable and path is allowed.
 */
export function consentProblem(source: string, policies: readonly RecordedPolicy[], consent: RunDirConsent, extraPaths: readonly { where: string; path: string | undefined }[] = []): string | null {
  const refuse = (what: string, flag: string) =>
    `${source} gives ${what}: a run directory is untrusted input, so its endpoints, key variables and paths are not used without your consent (nothing was sent). ` +
    `Allow it with ${flag}, or give that seat's policy on the command line.`;
  for (const { where, policy } of policies) {
    if (!policy) continue;
    const parts: { where: string; baseURL?: string | undefined; apiKeyEnv?: string | undefined }[] = [{ where, baseURL: policy.baseURL, apiKeyEnv: policy.apiKeyEnv }];
    if (policy.reformat) parts.push({ where: `${where}'s reformat model`, baseURL: policy.reformat.baseURL, apiKeyEnv: policy.reformat.apiKeyEnv });
    for (const p of parts) {
      if (p.baseURL !== undefined) {
        const url = normaliseEndpoint(p.baseURL);
        if (url === null || !consent.endpoints.includes(url)) return refuse(`${p.where} the base URL ${JSON.stringify(p.baseURL.slice(0, 200))}`, `--allow-endpoint ${url ?? JSON.stringify(p.baseURL.slice(0, 200))}`);
      }
      if (p.apiKeyEnv !== undefined && !consent.keyEnvs.includes(p.apiKeyEnv)) return refuse(`${p.where} the key variable ${JSON.stringify(p.apiKeyEnv.slice(0, 80))}`, `--allow-key-env ${p.apiKeyEnv.slice(0, 80)}`);
    }
    if (policy.promptDir !== undefined && !consent.paths.includes(policy.promptDir)) return refuse(`${where} the prompt directory ${JSON.stringify(policy.promptDir.slice(0, 200))}`, `--allow-path ${policy.promptDir.slice(0, 200)}`);
  }
  for (const { where, path } of extraPaths) {
    if (path !== undefined && !consent.paths.includes(path)) return refuse(`${where} ${JSON.stringify(path.slice(0, 200))}`, `--allow-path ${path.slice(0, 200)}`);
  }
  return null;
}
