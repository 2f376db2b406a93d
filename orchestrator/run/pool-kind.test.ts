import { describe, expect, it } from 'vitest';
import type { HostPoolOptions } from './episode-host.js';
import { poolKind } from './pool-kind.js';

const opts = (warm: HostPoolOptions['warm'], more: Partial<HostPoolOptions> = {}): HostPoolOptions => ({ concurrency: 2, seatsPerEpisode: 2, seatsPerProcess: 1, warm, niceness: 0, ...more });

describe('poolKind: which runs of one command share agent processes (PoolLender)', () => {
  it('runs of two models of one provider share (a warm-up loads the provider, not the model), whatever their run directories', () => {
    const a = poolKind(opts([{ spec: 'openai:gen-a', params: {}, cassetteDir: '/r/arm-1/cassettes' }]));
    expect(poolKind(opts([{ spec: 'openai:gen-b', params: {}, cassetteDir: '/r/arm-2/cassettes' }]))).toBe(a);
    // The script writer's side warms the same policy: one pool for both sides of a script-vs-agents claim.
    expect(poolKind(opts([{ spec: 'openai:gen-b', params: {} }], { seatsPerEpisode: 1 }))).toBe(a);
  });

  it('another provider, another bot, other settings or another kind of process do not', () => {
    const a = poolKind(opts([{ spec: 'openai:gen-a', params: {} }]));
    for (const other of [
      opts([{ spec: 'mistral:gen-a', params: {} }]),
      opts([{ spec: 'openai:gen-a', params: {}, baseURL: 'http://127.0.0.1:9/v1' }]),
      opts([{ spec: 'openai:gen-a', params: { temperature: 0.2 } }]),
      opts([{ spec: 'openai:gen-a', params: {} }, { spec: 'bot', params: {} }]),
      opts([{ spec: 'openai:gen-a', params: {} }], { seatsPerProcess: 16 }),
      opts([{ spec: 'openai:gen-a', params: {} }], { tlsFree: true }),
    ]) expect(poolKind(other)).not.toBe(a);
    expect(poolKind(opts([{ spec: 'bot:chatter', params: {} }]))).not.toBe(poolKind(opts([{ spec: 'bot', params: {} }])));
  });
});
