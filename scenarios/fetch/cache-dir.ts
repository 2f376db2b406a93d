import { homedir } from 'node:os';
import path from 'node:path';

/**
 * Parley's download cache: `$PARLEY_CACHE`, else `$XDG_CACHE_HOME/parley`, else `~/.cache/parley`.
 * Downloads land here, never in the repository or the working directory.
 */
export function cacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.PARLEY_CACHE) return path.resolve(env.PARLEY_CACHE);
  if (env.XDG_CACHE_HOME) return path.join(path.resolve(env.XDG_CACHE_HOME), 'parley');
  return path.join(homedir(), '.cache', 'parley');
}
