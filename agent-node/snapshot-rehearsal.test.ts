import { describe, expect, it } from 'vitest';
import { decodeOrchestratorFrame } from '../protocol/index.js';
import { rehearsalFrames, rehearseFrameDecodes } from './snapshot-rehearsal.js';

describe('the start-up snapshot rehearsal', () => {
  it('decodes every made-up frame (a schema change that makes one invalid fails here, not silently in the blob)', () => {
    const frames = rehearsalFrames();
    for (const f of frames) expect(decodeOrchestratorFrame(JSON.stringify(f)), JSON.stringify(f).slice(0, 80)).toMatchObject({ ok: true });
    expect(rehearseFrameDecodes()).toBe(frames.length);
  });

  it('covers the welcome of each protocol and task kind an LLM run sends, a peer state and episode ends', () => {
    const types = rehearsalFrames().map((f) => (f as { type: string }).type);
    expect(types.filter((t) => t === 'seat.welcome')).toHaveLength(6);
    expect(types).toContain('peer.state');
    expect(types.filter((t) => t === 'episode.end')).toHaveLength(2);
  });
});
