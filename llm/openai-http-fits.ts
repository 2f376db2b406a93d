/**
 * When the light request path (openai-http.ts, loaded lazily) can send the SDK's exact bytes. Apart from
 * it so that deciding loads nothing of it.
 */

/**
 * How the SDK names the operating systems and processors it reports (its X-Stainless-OS and -Arch
 * headers) for the ones Node runs on here; on any other the SDK keeps sending the requests.
 */
export const SDK_OS_NAMES: Readonly<Record<string, string>> = { linux: 'Linux', darwin: 'MacOS', win32: 'Windows', freebsd: 'FreeBSD', openbsd: 'OpenBSD', android: 'Android' };
export const SDK_ARCH_NAMES: Readonly<Record<string, string>> = { x64: 'x64', arm64: 'arm64', arm: 'arm' };

/** Whether this client's requests can take the light path with the SDK's exact bytes. */
export function lightPathFits(env: NodeJS.ProcessEnv = process.env, execArgv: readonly string[] = process.execArgv): boolean {
  // The SDK adds OpenAI-Organization / OpenAI-Project from these: left to the SDK.
  if (env.OPENAI_ORG_ID || env.OPENAI_PROJECT_ID) return false;
  if (usesEnvProxy(env, execArgv)) return false;
  return Object.hasOwn(SDK_OS_NAMES, process.platform) && Object.hasOwn(SDK_ARCH_NAMES, process.arch);
}


/**
 * Whether Node's own fetch sends through HTTP_PROXY / HTTPS_PROXY / NO_PROXY here: NODE_USE_ENV_PROXY or
 * --use-env-proxy (Node 22.21+ and 24.5+; Node 20 ignores both, and so does the SDK). The light path's
 * connections know no proxy, so such a process leaves every request to the SDK: a proxy the user set
 * takes effect. Read loosely (any value but empty or 0): a needless SDK request costs CPU, a bypassed
 * proxy costs a refused or unaudited connection.
 */
export function usesEnvProxy(env: NodeJS.ProcessEnv, execArgv: readonly string[]): boolean {
  const flag = (args: readonly string[]) => args.some((a) => a === '--use-env-proxy' || a.startsWith('--use-env-proxy='));
  const value = env.NODE_USE_ENV_PROXY?.trim();
  return (value !== undefined && value !== '' && value !== '0') || flag(execArgv) || flag((env.NODE_OPTIONS ?? '').split(/\s+/));
}
