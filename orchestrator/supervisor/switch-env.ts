/**
 * An on/off environment variable of the agent processes' launch (PARLEY_WORKER_BUNDLE,
 * PARLEY_WORKER_SNAPSHOT): `0` is off, `1` on, unset or empty the default. Any other value is refused
 * (a setting given either takes effect or is refused: `false` or `off` must not silently mean "on").
 */
export function switchEnv(name: string, env: NodeJS.ProcessEnv = process.env): boolean | undefined {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return undefined;
  if (raw === '0') return false;
  if (raw === '1') return true;
  throw new Error(`${name}: expected 0 (off) or 1 (on), got ${JSON.stringify(raw.slice(0, 40))}`);
}
