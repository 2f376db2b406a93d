import { afterAll, beforeAll, beforeEach, vi } from 'vitest';
import { startFakeLlmServer, type FakeLlmServer, type FakeLlmServerOptions } from '../../testkit/fake-llm-server.js';
import { tempDir } from '../../testkit/processes.js';

/** What a test file against the fake LLM server shares between its tests (see `fakeLlmSuite`). */
export interface FakeLlmSuite {
  /** The file's scratch folder, removed after its tests. */
  readonly tmp: { path: string; remove(): void };
  /** The fake OpenAI/Mistral-compatible server, up from beforeAll to afterAll. */
  readonly server: FakeLlmServer;
}

/**
 * Registers, in the calling `describe`, a scratch folder named by `prefix` and a fake LLM server started
 * in beforeAll (before the file's own beforeAll hooks, which may use it) and closed in afterAll.
 */
export function fakeLlmSuite(prefix: string, options?: FakeLlmServerOptions): FakeLlmSuite {
  const tmp = tempDir(prefix);
  let server: FakeLlmServer | undefined;
  beforeAll(async () => {
    server = await startFakeLlmServer(options);
  });
  afterAll(async () => {
    await server?.close();
    tmp.remove();
  });
  return {
    tmp,
    get server() {
      if (!server) throw new Error('the fake LLM server starts in beforeAll');
      return server;
    },
  };
}

/** What an in-process test of LLM clients shares with the fake server (see `fakeLlmClientSuite`). */
export interface FakeLlmClientSuite {
  /** The fake OpenAI/Mistral-compatible server, up from beforeAll to afterAll. */
  readonly server: FakeLlmServer;
  /** The server's provider variables (keys and base URLs), for `createClient(…, { env })`. */
  readonly env: Record<string, string>;
  /** Runs `fn` with the server stopped (what a replay must do without), then starts it again on its port. */
  whileStopped<T>(fn: () => Promise<T>): Promise<T>;
}

/**
 * Registers, in the calling `describe` (or file), a fake LLM server for clients created in this process:
 * started in beforeAll (with `stubEnv`, its variables also stubbed into process.env until afterAll, for
 * code that reads them there), closed in afterAll; before each test its request log is emptied and
 * `beforeEach` runs (a default reply to set, a remembered ladder rung to forget).
 */
export function fakeLlmClientSuite(options: FakeLlmServerOptions & { stubEnv?: boolean; beforeEach?: (server: FakeLlmServer) => void } = {}): FakeLlmClientSuite {
  const { stubEnv, beforeEach: eachTest, ...serverOptions } = options;
  let server: FakeLlmServer | undefined;
  beforeAll(async () => {
    server = await startFakeLlmServer(serverOptions);
    if (stubEnv) for (const [k, v] of Object.entries(server.env())) vi.stubEnv(k, v);
  });
  afterAll(async () => {
    if (stubEnv) vi.unstubAllEnvs();
    await server?.close();
  });
  beforeEach(() => {
    const s = started();
    s.requests.length = 0;
    eachTest?.(s);
  });
  const started = () => {
    if (!server) throw new Error('the fake LLM server starts in beforeAll');
    return server;
  };
  return {
    get server() {
      return started();
    },
    get env() {
      return started().env();
    },
    async whileStopped(fn) {
      const { port } = started();
      await started().close();
      try {
        return await fn();
      } finally {
        server = await startFakeLlmServer({ ...serverOptions, port });
      }
    },
  };
}
