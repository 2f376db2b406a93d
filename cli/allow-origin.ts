import { normaliseOrigin } from '../orchestrator/net/origin-guard.js';
import type { FlagSpec, FlagValue } from './args.js';
import { UsageError } from './command.js';

/** `--allow-origin URL` (repeatable), shared by every command that serves pages to browsers. */
export const ALLOW_ORIGIN_FLAG: FlagSpec = {
  type: 'string',
  multiple: true,
  metavar: 'URL',
  describe: "a browser origin allowed besides the server's own, e.g. http://study.example:8080 (repeatable); also the host name it may be reached by",
};

/** The `--allow-origin` values, each checked to be an http(s) origin (a usage error otherwise). */
export function allowOrigins(flags: Record<string, FlagValue>): string[] {
  const given = (flags['allow-origin'] as string[] | undefined) ?? [];
  return given.map((o) => {
    try {
      return normaliseOrigin(o);
    } catch {
      throw new UsageError(`--allow-origin ${JSON.stringify(o)} is not an http(s) origin such as http://host:8080`);
    }
  });
}
