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
export function lightPathFits(env: NodeJS.ProcessEnv = process.env): boolean {
  // The SDK adds OpenAI-Organization / OpenAI-Project from these: left to the SDK.
  if (env.OPENAI_ORG_ID || env.OPENAI_PROJECT_ID) return false;
  return Object.hasOwn(SDK_OS_NAMES, process.platform) && Object.hasOwn(SDK_ARCH_NAMES, process.arch);
}

