import { describe, expect, it } from 'vitest';
import { layerOf } from './profile-layers.js';

describe('layerOf: a profile module’s layer', () => {
  it('puts the HTTP client, ws, zod, the cassette, prompts and Node’s event machinery each in its own layer', () => {
    expect(layerOf('node:_http_client')).toBe(layerOf('llm/openai-http.ts'));
    expect(layerOf('llm/http1-pool.ts')).toBe(layerOf('llm/http1-reply.ts'));
    expect(layerOf('llm/http1-pool.ts')).toBe(layerOf('node:net'));
    expect(layerOf('node:internal/streams/readable')).toBe(layerOf('node:net'));
    expect(layerOf('ws')).toBe('ws');
    expect(layerOf('agent-node/ws/frame-reader.ts')).toBe('ws');
    expect(layerOf('zod')).toBe(layerOf('protocol/decode.ts'));
    expect(layerOf('llm/cassette.ts')).toBe(layerOf('node:fs'));
    expect(layerOf('(rmdir)')).toBe(layerOf('node:fs'));
    expect(layerOf('agent-node/policies/llm/render.ts')).toBe('prompt rendering');
    expect(layerOf('node:internal/abort_controller')).toBe(layerOf('node:events'));
    expect(layerOf('(writev)')).toMatch(/^writes/);
    expect(layerOf('agent-node/policy-runner.ts')).toMatch(/^agent turn logic/);
    expect(layerOf('node:internal/url')).toMatch(/^V8 and Node internals/);
    expect(layerOf('somewhere-else')).toBe('other');
  });
});
