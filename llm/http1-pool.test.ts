import { describe, expect, it } from 'vitest';
import { exchange, rehearsalConnection } from './http1-pool.js';

const abort = () => new Error('aborted');
const answer = (body: string) => Buffer.from(`HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: ${body.length}\r\nkeep-alive: timeout=5\r\n\r\n${body}`);

describe('the in-memory connection of the start-up snapshot\'s rehearsal (rehearsalConnection)', () => {
  it('answers each request to its origin through the pool\'s exchange, and again after the first (the connection is released and reused)', async () => {
    const url = new URL('http://rehearsal.invalid/v1/chat/completions');
    const remove = rehearsalConnection(url, answer('hello'));
    const signal = new AbortController().signal;
    for (let i = 0; i < 2; i++) {
      const reply = await exchange(url, Buffer.from('POST /v1/chat/completions HTTP/1.1\r\n\r\n'), signal, abort);
      expect(reply.status).toBe(200);
      expect(reply.body.toString()).toBe('hello');
    }
    remove();
  });
});
