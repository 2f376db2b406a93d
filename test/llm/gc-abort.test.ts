import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundledWorker } from '../../orchestrator/supervisor/worker-bundle.js';
import type { CaseName, CaseResult } from './gc-abort-cases.js';

/**
 * A timeout or an abort must end a request even when the garbage collector runs while it hangs. On Node 20
 * (undici 6), signals handed from `AbortSignal.timeout`/`any` through a `Request` to `fetch` are linked by
 * weak references; a collection during the wait dropped a link and the request never ended (a CI run lost
 * a Mistral seat's call that way). Collections are forced every few milliseconds to make it certain.
 *
 * The cases run in a child process (gc-abort-cases.ts says why: a forced collection in the shared test
 * worker walked every module loaded by the files before it); each test asserts on what its case returns.
 */
// No per-test timeout: a forced collection every 5 ms leaves a loaded machine's event loop little time (three
// copies of this file on two busy cores: a 400 ms attempt lasted 1.5-2.5 s, the Mistral case of three 5-7 s,
// over the 10 s these tests once had); a request that hangs for good still fails at the integration guard
// (E2E_GUARD_MS).
const CASES = fileURLToPath(new URL('./gc-abort-cases.ts', import.meta.url));
/** tsx's loader as an absolute URL (`--import tsx` would resolve against the cwd). */
const TSX_LOADER = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

type Reply = { ready?: true; id?: number; result?: CaseResult; error?: string };

/** The cases' process, and a call per case that settles with its result (or its error, or its exit). */
async function startCases(): Promise<{ run(name: CaseName, spec?: string): Promise<CaseResult>; close(): Promise<void> }> {
  // Bundled (and cached) like an agent process: under tsx, its loader hooks cost ~4 s of CPU importing the
  // Mistral SDK file by file. Under tsx still if no bundle can be built.
  const bundle = await bundledWorker(CASES).catch(() => null);
  const launch = bundle ? { path: bundle, execArgv: [] } : { path: CASES, execArgv: ['--import', TSX_LOADER] };
  const child: ChildProcess = fork(launch.path, [], { execArgv: ['--expose-gc', ...launch.execArgv], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const calls = new Map<number, { resolve(r: CaseResult): void; reject(e: Error): void }>();
  let ready!: () => void;
  const started = new Promise<void>((resolve) => (ready = resolve));
  child.on('message', (m: Reply) => {
    if (m.ready) return ready();
    const call = calls.get(m.id!);
    calls.delete(m.id!);
    if (m.error) call?.reject(new Error(m.error));
    else call?.resolve(m.result!);
  });
  const exited = once(child, 'exit');
  void exited.then(([code, signal]) => {
    for (const call of calls.values()) call.reject(new Error(`the cases' process exited (${code ?? signal})`));
  });
  await Promise.race([started, exited.then(() => Promise.reject(new Error("the cases' process exited before it was ready")))]);
  let next = 0;
  return {
    run: (name, spec = '') =>
      new Promise((resolve, reject) => {
        calls.set(++next, { resolve, reject });
        child.send({ id: next, name, spec });
      }),
    async close() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

let cases: Awaited<ReturnType<typeof startCases>>;
beforeAll(async () => {
  cases = await startCases();
});
afterAll(() => cases?.close());

describe.each(['openai:gpt-3.5-turbo', 'mistral:open-mixtral-8x7b'])('%s: timeouts and aborts survive garbage collection', (spec) => {
  // A fake server for this spec, and the SDK loaded before the clock matters.
  beforeAll(() => cases.run('warm', spec));

  it('ends every hanging attempt at its timeout', async () => {
    // Each attempt must reach the server before its timeout ends it, over a new connection. Collections run
    // on the first ticks of each hang at the server, not while a request is on its way.
    const r = await cases.run('everyAttempt', spec);
    expect(r.code).toBe('llm/timeout');
    expect(r.retries).toBe(2);
    expect(r.collections, 'collections while an attempt hung').toBeGreaterThan(0);
    // Every attempt reached the server (it hung there); the server may read the last one after its client gave up.
    expect(r.requests).toBe(3);
  });

  it('ends a hanging streamed attempt at its timeout', async () => {
    expect((await cases.run('streamed', spec)).code).toBe('llm/timeout');
  });

  it("ends a hanging attempt at the caller's abort", async () => {
    const r = await cases.run('callerAbort', spec);
    expect(r.requests).toBe(1);
    // Periodic collections while it hangs, then a full one between them and the abort.
    expect(r.collectionsWhileHanging).toBeGreaterThanOrEqual(3);
    expect(r.code).toBe('llm/aborted');
  });

  it('ends a hanging attempt at its timeout while a caller signal is attached', async () => {
    expect((await cases.run('signalAttached', spec)).code).toBe('llm/timeout');
  });
});

describe('Mistral batch jobs: a poll to a server that never answers ends at its timeout under garbage collection', () => {
  it('retrieve', async () => {
    expect((await cases.run('batchRetrieve')).code).toBe('llm/timeout');
  });
});
