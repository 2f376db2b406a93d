import { describe, expect, it } from 'vitest';
import { decodeOrchestratorFrame, ParentToWorker } from '../protocol/index.js';
import { rehearsalFrames, rehearsalMessages, rehearseFrameDecodes } from './snapshot-rehearsal.js';

describe('the start-up snapshot rehearsal', () => {
  it('decodes every made-up frame (a schema change that makes one invalid fails here, not silently in the blob)', () => {
    const frames = rehearsalFrames();
    for (const f of frames) expect(decodeOrchestratorFrame(JSON.stringify(f)), JSON.stringify(f).slice(0, 80)).toMatchObject({ ok: true });
    const messages = rehearsalMessages();
    for (const m of messages) expect(ParentToWorker.safeParse(m).success, JSON.stringify(m)).toBe(true);
    expect(rehearseFrameDecodes()).toBe(frames.length + messages.length);
  });

  it('covers the welcome of each protocol and task kind an LLM run sends, a peer state and episode ends', () => {
    const types = rehearsalFrames().map((f) => (f as { type: string }).type);
    expect(types.filter((t) => t === 'seat.welcome')).toHaveLength(6);
    expect(types).toContain('peer.state');
    expect(types.filter((t) => t === 'episode.end')).toHaveLength(2);
  });
});
