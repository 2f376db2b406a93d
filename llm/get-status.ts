import { usesEnvProxy } from './openai-http-fits.js';

/**
 * The status a server answers one GET with, or why there was no answer: what `fetch` would give, over
 * node:http(s) where that gives the same. Why: Node 20 loads undici whole at the first `fetch` (its HTTP
 * parser is WebAssembly, compiled then): ~95 ms of CPU and ~1,700 page faults in a `parley eval` whose
 * only `fetch` is the judge's reachability check (evaluator/judge-preflight.ts), its judging going over
 * node:http (llm/http1-pool.ts). Where fetch would act otherwise, the request is fetch's: a scheme other
 * than http(s), credentials in the URL, a port the Fetch standard blocks, a proxy Node's fetch may take
 * from the environment, and a redirect (fetch follows it: the GET is sent again through fetch).
 */
export type GetStatus = { status: number } | { why: string };

/** Ports fetch refuses to connect to (the Fetch standard's "bad ports", as Node 20's undici lists them), from 1024 up; every port below 1024 is left to fetch. */
const BAD_HIGH_PORTS = new Set(['1719', '1720', '1723', '2049', '3659', '4045', '5060', '5061', '6000', '6566', '6665', '6666', '6667', '6668', '6669', '6697', '10080']);
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export async function getStatus(url: string, headers: Record<string, string>, timeoutMs: number, env: NodeJS.ProcessEnv = process.env): Promise<GetStatus> {
  const target = URL.canParse(url) ? new URL(url) : undefined;
  const plain = target && (target.protocol === 'http:' || target.protocol === 'https:') && !target.username && !target.password && !usesEnvProxy(env, process.execArgv);
  const portOk = target && (target.port === '' || (Number(target.port) >= 1024 && !BAD_HIGH_PORTS.has(target.port)));
  if (!plain || !portOk) return fetchStatus(url, headers, timeoutMs);
  const got = await nodeStatus(target, headers, timeoutMs);
  return 'redirect' in got ? fetchStatus(url, headers, timeoutMs) : got;
}

/** The check as it was: `fetch`, its body cancelled; a failure's reason is its cause's code, else message. */
async function fetchStatus(url: string, headers: Record<string, string>, timeoutMs: number): Promise<GetStatus> {
  try {
    const res = await fetch(url, { headers, signal: AbortSignal.timeout(timeoutMs) });
    await res.body?.cancel();
    return { status: res.status };
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    return { why: cause?.code ?? cause?.message ?? (err as Error).message };
  }
}

/** One GET on a connection of its own (no agent: nothing kept alive past the answer's head). */
async function nodeStatus(target: URL, headers: Record<string, string>, timeoutMs: number): Promise<GetStatus | { redirect: true }> {
  const { request } = target.protocol === 'https:' ? await import('node:https') : await import('node:http');
  const signal = AbortSignal.timeout(timeoutMs);
  return new Promise((resolve) => {
    const req = request(target, { headers, agent: false, signal }, (res) => {
      const status = res.statusCode!;
      req.destroy();
      resolve(REDIRECTS.has(status) && res.headers.location !== undefined ? { redirect: true } : { status });
    });
    // A timeout reads as fetch's (the signal's reason); anything else by its code, as fetch's cause gives it.
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ why: signal.aborted ? String((signal.reason as Error | undefined)?.message) : (err.code ?? err.message) }));
    req.end();
  });
}
