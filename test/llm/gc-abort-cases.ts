/**
 * The cases of test/llm/gc-abort.test.ts, run in a process of their own (the test file starts it
 * and asserts on what each case returns).
 *
 * Why a process of its own: the cases force a full garbage collection every 5 ms while a request hangs. In
 * the test worker, which Vitest shares between files (isolate: false), each collection walked the heap of
 * every module the files before had loaded: 12.9 s of CPU for this file alone. Here the heap holds only the
 * LLM clients and a fake server, and a collection drops the weakly linked signals just the same.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { reply, startFakeLlmServer, type FakeLlmServer } from '../../testkit/fake-llm-server.js';
import type { LlmError } from '../../llm/errors.js';
import { createClient, mistralBatchApi } from '../../llm/index.js';
import { ownRequests } from '../helpers/own-requests.js';

/** Started with --expose-gc (gc-abort.test.ts). */
const gc = (globalThis as { gc?: () => void }).gc!;
const MSG = { messages: [{ role: 'user' as const, content: 'Turn #0' }] };
/** How long a case waits for its request to reach the server (up to 3.4 s on a loaded machine). */
const ARRIVAL_MS = 10_000;

/** What a case reports to the test. */
export interface CaseResult {
  code?: string;
  retries?: number;
  collections?: number;
  requests?: number;
  /** Collections between the request's arrival and the caller's abort. */
  collectionsWhileHanging?: number;
}

/** Resolves once `ok()` holds, checking every `everyMs`; after `ms`, resolves anyway (the test asserts). */
async function until(ok: () => boolean, ms = ARRIVAL_MS, everyMs = 5): Promise<void> {
  const end = Date.now() + ms;
  while (!ok() && Date.now() < end) await new Promise((r) => setTimeout(r, everyMs));
}

/**
 * Runs `fn` while collecting garbage every 5 ms (only while `when()` holds, if given); `fn` can read how many
 * collections ran so far.
 */
async function underGc<T>(fn: (collections: () => number) => Promise<T>, when?: () => boolean): Promise<T> {
  let collections = 0;
  const timer = setInterval(() => {
    if (when && !when()) return;
    gc();
    collections += 1;
  }, 5);
  try {
    return await fn(() => collections);
  } finally {
    clearInterval(timer);
  }
}

/** Requests held at a server: how many hang there now, how many have arrived in all. */
interface Hangs {
  hanging(): number;
  arrived(): number;
}
const hangsAt = (server: FakeLlmServer): Hangs => ({ hanging: () => server.hanging, arrived: () => server.requests.length });

/**
 * Collections each hang gets (`firstTicksOfEachHang`). With the fix of 641f550 reverted, one a hang made every
 * Mistral case hang (with none, their requests ended at their timeouts); two leave a margin.
 */
const TICKS_PER_HANG = 2;

/**
 * The first `n` ticks of each hang at the server, counted afresh when another request arrives (each attempt
 * of a retried call hangs on its own). Not while a request is on its way: back-to-back full collections of
 * the Mistral SDK's heap on a loaded machine kept requests from arriving for seconds. One collection while
 * a hang holds the weakly linked signals is what the bug needs (each one costs ~90 ms of CPU with the
 * Mistral SDK loaded); collecting for the rest of a hang added CPU, not a case.
 */
function firstTicksOfEachHang(h: Hangs, n = TICKS_PER_HANG): () => boolean {
  let arrived = -1;
  let left = 0;
  return () => {
    if (h.hanging() === 0) return false;
    if (h.arrived() !== arrived) [arrived, left] = [h.arrived(), n];
    if (left === 0) return false;
    left -= 1;
    return true;
  };
}

/** One fake server per provider spec, started (and the SDK loaded, before the clock matters) by `warm`. */
const servers = new Map<string, FakeLlmServer>();
const serverOf = (spec: string) => servers.get(spec)!;
const envOf = (spec: string) => serverOf(spec).env();
const codeOf = (err: unknown) => ({ code: (err as LlmError).code, retries: (err as LlmError).retries });

async function warm(spec: string): Promise<CaseResult> {
  const server = await startFakeLlmServer();
  servers.set(spec, server);
  server.enqueue(reply.text('{"ok":true}'));
  await createClient({ spec }, { env: server.env() }).chat(MSG);
  return {};
}

async function everyAttempt(spec: string): Promise<CaseResult> {
  const server = serverOf(spec);
  const { msg, requests } = ownRequests(server, 'every attempt', [], reply.hang());
  const client = createClient({ spec, params: { timeoutMs: 400, maxRetries: 2, retryBaseMs: 1 } }, { env: envOf(spec) });
  let collections = 0;
  const err = await underGc((count) => client.chat(msg).catch((e) => e).finally(() => (collections = count())), firstTicksOfEachHang(hangsAt(server)));
  // The server may read the last attempt after its client gave up.
  await until(() => requests().length === 3);
  return { ...codeOf(err), collections, requests: requests().length };
}

async function streamed(spec: string): Promise<CaseResult> {
  const { msg } = ownRequests(serverOf(spec), 'streamed', [], reply.hang());
  const client = createClient({ spec, params: { timeoutMs: 100, maxRetries: 0, stream: true } }, { env: envOf(spec) });
  return codeOf(await underGc(() => client.chat(msg).catch((e) => e), firstTicksOfEachHang(hangsAt(serverOf(spec)))));
}

async function callerAbort(spec: string): Promise<CaseResult> {
  const server = serverOf(spec);
  const { msg, requests } = ownRequests(server, 'caller abort', [], reply.hang());
  const ac = new AbortController();
  const client = createClient({ spec, params: { timeoutMs: 60_000 } }, { env: envOf(spec) });
  let collectionsWhileHanging = 0;
  const err = await underGc(async (collections) => {
    const pending = client.chat(msg, ac.signal).catch((e) => e);
    await until(() => requests().length === 1);
    // Periodic collections while it hangs, then a full one between them and the abort.
    const atArrival = collections();
    await until(() => collections() >= atArrival + 3);
    collectionsWhileHanging = collections() - atArrival;
    gc();
    ac.abort();
    return pending;
  }, () => server.hanging > 0);
  return { ...codeOf(err), requests: requests().length, collectionsWhileHanging };
}

async function signalAttached(spec: string): Promise<CaseResult> {
  const { msg } = ownRequests(serverOf(spec), 'signal attached', [], reply.hang());
  const ac = new AbortController();
  const client = createClient({ spec, params: { timeoutMs: 100, maxRetries: 0 } }, { env: envOf(spec) });
  return codeOf(await underGc(() => client.chat(msg, ac.signal).catch((e) => e), firstTicksOfEachHang(hangsAt(serverOf(spec)))));
}

/** A Mistral batch poll to a server that accepts and never answers. */
async function batchRetrieve(): Promise<CaseResult> {
  let [hanging, arrived] = [0, 0];
  const server = createServer((req, res) => {
    [hanging, arrived] = [hanging + 1, arrived + 1];
    res.once('close', () => (hanging -= 1));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const settings = { apiKey: 'x', timeoutMs: 100, model: 'm', sampling: {}, structured: 'json_object' as const, baseURL: url };
  try {
    const hangs = { hanging: () => hanging, arrived: () => arrived };
    return codeOf(await underGc(() => mistralBatchApi(settings).retrieve('job-1').catch((e) => e), firstTicksOfEachHang(hangs)));
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

export const CASES = { warm, everyAttempt, streamed, callerAbort, signalAttached, batchRetrieve } satisfies Record<string, (spec: string) => Promise<CaseResult>>;
export type CaseName = keyof typeof CASES;

/** Started as a process: runs the cases the parent asks for, one message each, and answers with the result. */
if (process.send) {
  process.on('message', (m: { id: number; name: CaseName; spec: string }) => {
    CASES[m.name](m.spec).then(
      (result) => process.send!({ id: m.id, result }),
      (err: Error) => process.send!({ id: m.id, error: err.stack ?? String(err) }),
    );
  });
  process.send({ ready: true });
}
