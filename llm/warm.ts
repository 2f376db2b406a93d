import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createProviderClient, replaySource, type ClientConfig } from './create-client.js';
import { providerNamed } from './providers/registry.js';
import { parseSpec } from './spec.js';

/** A minimal chat completion, in the shape both SDKs validate. */
function completion(model: string): string {
  return JSON.stringify({
    id: 'warm-up',
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: '{}' }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  });
}

/**
 * Where the seat's own client needs nothing but its modules loaded (LlmClient.preload: the light HTTP path
 * of `openai:`-wire providers and of `mistral:`), loads them: the throw-away request below would add only its own cost, ~25 ms
 * of CPU a process of which the in-process server is most (bench/start-up.md). Built as the seat's (its
 * params, its base URL: http or https), with a stand-in key, since nothing is sent.
 */
export async function preloaded(config: ClientConfig): Promise<boolean> {
  try {
    const client = createProviderClient({ ...config, apiKeyEnv: 'PARLEY_WARM_UP_KEY' }, { env: { ...process.env, PARLEY_WARM_UP_KEY: 'warm-up' } });
    if (!client.preload) return false;
    await client.preload();
    return true;
  } catch {
    return false;
  }
}

/**
 * Makes one throw-away call through the same client stack a seat uses (the provider SDK, Node's HTTP
 * client, our retries and limiter) against a local server in this process, so that everything they load
 * and initialise lazily on a first request is done before the process takes a seat: a pooled agent
 * process warms up off the per-episode path. Nothing goes over the network; replay needs nothing; a
 * client that only needs its modules loaded (`preloaded`) gets that and no request.
 * Never throws: a failed warm-up only means the first real call pays the cost.
 */
export async function warmProvider(config: ClientConfig): Promise<void> {
  if (replaySource(config)) return;
  const spec = 'spec' in config ? parseSpec(config.spec) : { provider: config.provider, model: config.model };
  const provider = providerNamed(spec.provider);
  if (!provider) return;
  if (await preloaded(config)) return;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(completion(spec.model)));
  });
  try {
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    const base = `http://127.0.0.1:${port}`;
    const client = createProviderClient(
      { spec: `${spec.provider}:${spec.model}`, baseURL: provider.baseURLAt(base), apiKeyEnv: 'PARLEY_WARM_UP_KEY', params: { maxRetries: 0, timeoutMs: 5_000 } },
      { env: { PARLEY_WARM_UP_KEY: 'warm-up' } },
    );
    await client.chat({ messages: [{ role: 'user', content: 'warm-up' }] });
  } catch {
    // Best effort.
  } finally {
    server.closeAllConnections();
    server.close();
  }
}
