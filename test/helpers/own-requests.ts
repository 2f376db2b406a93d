import { reply, type FakeLlmServer, type FakeReply, type ReceivedRequest } from '../../testkit/fake-llm-server.js';

/** One test's share of a fake LLM server that the tests of a file share (see `ownRequests`). */
export interface OwnRequests {
  /** The chat request to send: a user message no other test sends. */
  readonly msg: { messages: Array<{ role: 'user'; content: string }> };
  /** The requests the server has received with that message, in arrival order. */
  requests(): ReceivedRequest[];
}

/**
 * Scripts the server for one test by the message it sends, not by a queue shared with the other tests.
 *
 * A client that gives up (a timeout, an abort) may leave a request that the server, in the same busy
 * process, reads only after the test has moved on. That late request must neither count in a later test
 * nor take a reply queued for it: here it gets no reply at all (it hangs until its client is gone).
 * This test's requests get `replies` in order, then `then`.
 */
export function ownRequests(server: FakeLlmServer, tag: string, replies: FakeReply[] = [], then: FakeReply = reply.plausible()): OwnRequests {
  const content = `Turn #0 (${tag})`;
  const mine = (r: ReceivedRequest) => r.body.messages?.some((m) => m.content === content) ?? false;
  const left = [...replies];
  server.setDefault((r) => (mine(r) ? (left.shift() ?? then) : reply.hang()));
  return { msg: { messages: [{ role: 'user', content }] }, requests: () => server.requests.filter(mine) };
}
