import { writeFile } from 'node:fs/promises';
import { ScenarioError, ScenarioErrorCode } from '../errors.js';

/** How long one file may take before the fetch gives up (SOTOPIA's largest file is ~1 MB). */
const DOWNLOAD_TIMEOUT_MS = 60_000;

/**
 * Downloads `url` to `file`. Any failure (server down, DNS, non-2xx, timeout) is a ScenarioError whose
 * message names the URL and the reason in one line.
 */
export async function downloadTo(url: string, file: string, fetchImpl: typeof fetch = fetch): Promise<number> {
  let res: Response;
  try {
    res = await fetchImpl(url, { signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS), redirect: 'follow' });
  } catch (err) {
    throw new ScenarioError(ScenarioErrorCode.Fetch, `cannot download (${reason(err)})`, { file: url }, { cause: err });
  }
  if (!res.ok) throw new ScenarioError(ScenarioErrorCode.Fetch, `cannot download (HTTP ${res.status} ${res.statusText})`, { file: url });
  const body = Buffer.from(await res.arrayBuffer());
  await writeFile(file, body);
  return body.length;
}

/** The innermost readable reason of a fetch failure (undici wraps ECONNREFUSED in `cause`). */
function reason(err: unknown): string {
  let e = err as { message?: string; code?: string; cause?: unknown } | undefined;
  let text = e?.message ?? String(err);
  while (e?.cause && typeof e.cause === 'object') {
    e = e.cause as typeof e;
    if (e?.code) text = `${e.code}${e.message ? `: ${e.message}` : ''}`;
    else if (e?.message) text = e.message;
  }
  return text.split('\n')[0]!;
}
