import { describe, expect, it } from 'vitest';
import { textOnlyParser } from './text-only-parser.js';

/** Feeds one socket.io packet (engine.io's leading `4` already taken off) to a fresh decoder. */
function decode(packet: unknown): { ok: true; data: unknown } | { ok: false; message: string } {
  const decoder = new textOnlyParser.Decoder();
  let data: unknown;
  decoder.on('decoded', (p: { data?: unknown }) => void (data = p.data));
  try {
    decoder.add(packet as string);
    return { ok: true, data };
  } catch (err) {
    return { ok: false, message: (err as Error).message };
  }
}

describe('the browser endpoint\'s socket.io parser (issue 19, k02/k04)', () => {
  it('decodes what the seat page sends: a frame event with one string', () => {
    expect(decode('2["frame","{\\"type\\":\\"pong\\"}"]')).toEqual({ ok: true, data: ['frame', '{"type":"pong"}'] });
    expect(decode('0')).toMatchObject({ ok: true });
  });

  it('refuses binary packets, attachments and raw binary data before buffering anything', () => {
    expect(decode('51-["frame",{"_placeholder":true,"num":0}]')).toMatchObject({ ok: false, message: /binary/ });
    expect(decode('61-[{"_placeholder":true,"num":0}]')).toMatchObject({ ok: false, message: /binary/ });
    expect(decode(Buffer.alloc(8))).toMatchObject({ ok: false, message: /binary/ });
  });

  it('refuses event names that are not strings', () => {
    expect(decode('2[1]')).toMatchObject({ ok: false, message: /event names/ });
    expect(decode('2[{"toString":1}]')).toMatchObject({ ok: false });
    expect(decode('2[[1]]')).toMatchObject({ ok: false });
  });
});
