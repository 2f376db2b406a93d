import { afterAll, beforeAll } from 'vitest';
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
