import { describe, expect, it } from 'vitest';
import { rehearsalFrames } from './snapshot-rehearsal.js';
import { rehearseSeatTurns } from './snapshot-turn-rehearsal.js';
import { holdsMasks } from './ws/frame-writer.js';

describe('the start-up snapshot turn rehearsal', () => {
  it('plays one LLM turn to a move for each made-up welcome (a prompt or parse change that makes one fail shows here, not as a cold first turn)', async () => {
    const welcomes = rehearsalFrames().filter((f) => (f as { type: string }).type === 'seat.welcome').length;
    expect(welcomes).toBe(6);
    expect((await rehearseSeatTurns()).turns).toBe(welcomes);
  });

  it('plays a whole seat of each protocol over the WebSocket client in memory: joined, one move sent, ended, and no mask left drawn', async () => {
    expect((await rehearseSeatTurns()).seats).toBe(2);
    expect(holdsMasks()).toBe(false);
  });
});
