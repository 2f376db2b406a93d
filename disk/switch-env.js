// @ts-check
/**
 * An on/off environment variable of the bundles' users: PARLEY_CLI_BUNDLE (bin/parley.js), and
 * PARLEY_WORKER_BUNDLE, PARLEY_WORKER_SNAPSHOT (the agent processes' launch). `0` is off, `1` on, unset or
 * empty the default. Any other value is refused (a setting given either takes effect or is refused: `false`
 * or `off` must not silently mean "on"). Plain JavaScript beside bundle-cache.js because bin/parley.js
 * reads its switch before any TypeScript loader runs.
 * @param {string} name
 * @param {NodeJS.ProcessEnv} [env]
 * @returns {boolean | undefined}
 */
export function switchEnv(name, env = process.env) {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return undefined;
  if (raw === '0') return false;
  if (raw === '1') return true;
  throw new Error(`${name}: expected 0 (off) or 1 (on), got ${JSON.stringify(raw.slice(0, 40))}`);
}
