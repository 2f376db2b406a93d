/**
 * A scripted stand-in for the orchestrator's `/agent` endpoint, for agent-node tests: a real `ws` server
 * on 127.0.0.1, port 0, that records what each connection sends and lets a test answer frame by frame.
 * Test support only.
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import {
  AgentFrame,
  stamp,
  type OrchestratorFrame,
  type OrchestratorFrameBody,
  type SeatWelcome,
  type TaskKind,
  type TaskPrivate,
} from '../../protocol/index.js';

export interface FakeConnection {
  socket: WebSocket;
  /** Every frame received, decoded (invalid ones are kept as `{ invalid: raw }`). */
  received: Array<AgentFrame | { invalid: string }>;
  /** Waits for the next frame of `type` not yet taken by an earlier `next` call. */
  next<T extends AgentFrame['type']>(type: T, timeoutMs?: number): Promise<Extract<AgentFrame, { type: T }>>;
  send(body: OrchestratorFrameBody): void;
  /** Resolves with the close code once the socket closed. */
  closed: Promise<number>;
}

export interface FakeOrchestrator {
  url: string;
  connections: FakeConnection[];
  /** Waits for the n-th connection (0-based). */
  connection(index: number, timeoutMs?: number): Promise<FakeConnection>;
  close(): Promise<void>;
}

export interface FakeOrchestratorOptions {
  /** Called with each opening request read; the server answers it when `answer` is called (a busy orchestrator answers late). */
  holdUpgrade?: (answer: () => void) => void;
}

export async function startFakeOrchestrator(opts: FakeOrchestratorOptions = {}): Promise<FakeOrchestrator> {
  const hold = opts.holdUpgrade;
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, path: '/agent', ...(hold ? { verifyClient: (_info: unknown, done: (ok: boolean) => void) => hold(() => done(true)) } : {}) });
  await once(wss, 'listening');
  const { port } = wss.address() as AddressInfo;
  const connections: FakeConnection[] = [];
  const waiters: Array<() => void> = [];
  let ids = 0;
  wss.on('connection', (socket) => {
    socket.on('error', () => {});
    const received: FakeConnection['received'] = [];
    const taken = new Set<number>();
    let notify: Array<() => void> = [];
    socket.on('message', (data) => {
      const text = data.toString();
      let frame: AgentFrame | { invalid: string };
      try {
        const parsed = AgentFrame.safeParse(JSON.parse(text));
        frame = parsed.success ? parsed.data : { invalid: text };
      } catch {
        frame = { invalid: text };
      }
      received.push(frame);
      const current = notify;
      notify = [];
      current.forEach((f) => f());
    });
    const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
    const conn: FakeConnection = {
      socket,
      received,
      closed,
      async next(type, timeoutMs = 5000) {
        const deadline = Date.now() + timeoutMs;
        for (;;) {
          const i = received.findIndex((f, k) => !taken.has(k) && 'type' in f && f.type === type);
          if (i >= 0) {
            taken.add(i);
            return received[i] as never;
          }
          const left = deadline - Date.now();
          if (left <= 0) throw new Error(`no ${type} frame within ${timeoutMs} ms (got: ${received.map((f) => ('type' in f ? f.type : 'invalid')).join(', ')})`);
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, left);
            notify.push(() => {
              clearTimeout(timer);
              resolve();
            });
          });
        }
      },
      send(body) {
        socket.send(JSON.stringify(stamp<OrchestratorFrame>(body, `o${ids++}`)));
      },
    };
    connections.push(conn);
    waiters.splice(0).forEach((f) => f());
  });
  return {
    url: `ws://127.0.0.1:${port}/agent`,
    connections,
    async connection(index, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (!connections[index]) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`connection #${index} did not arrive within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      return connections[index]!;
    },
    async close() {
      for (const c of wss.clients) c.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

/** A `seat.welcome` body for tests. */
export function welcomeBody(opts: { episodeId?: string; seat?: string; kind?: TaskKind; task?: TaskPrivate | null; maxTurns?: number } = {}): Omit<SeatWelcome, 'v' | 'id'> {
  const seat = opts.seat ?? 'agent1';
  return {
    type: 'seat.welcome',
    episodeId: opts.episodeId ?? 'ep-test',
    seat,
    mode: 'agents',
    scenario: { id: 'scn-test', kind: opts.kind ?? 'open', text: 'Two people meet.', seats: ['agent1', 'agent2'] },
    self: { seat, profile: { name: 'Test Person' }, goal: 'Have a nice chat.', hints: [], task: opts.task ?? null },
    partners: [{ seat: seat === 'agent1' ? 'agent2' : 'agent1', relationship: 0, profile: {} }],
    limits: { maxTurns: opts.maxTurns ?? 20, turnDeadlineMs: 5000, actions: ['none', 'speak', 'non-verbal communication', 'action', 'leave'] },
  };
}

export const ALL_ACTIONS = ['none', 'speak', 'non-verbal communication', 'action', 'leave'] as const;
