import { describe, expect, it } from 'vitest';
import type { EpisodeRecord, TurnRecord } from '../../protocol/index.js';
import type { WatchMessage } from '../../protocol/watch.js';
import { WatchHub, type WatchSink } from './watch-hub.js';

/** A watcher that records what it is sent; `backlog` stands for its socket's unwritten packets. */
class FakeSink implements WatchSink {
  readonly got: WatchMessage[] = [];
  closed: string | null = null;
  queued = 0;
  backlog = () => this.queued;
  queuedBytes = 0;
  backlogBytes = () => this.queuedBytes;
  send = (m: WatchMessage) => void this.got.push(m);
  close = (reason: string) => void (this.closed = reason);
  of<T extends WatchMessage['type']>(type: T) {
    return this.got.filter((m): m is Extract<WatchMessage, { type: T }> => m.type === type);
  }
  /** An episode as the page builds it: the last header, then the turns and ledger lines sent after it. */
  view(episodeId: string) {
    const at = this.got.findLastIndex((m) => m.type === 'episode' && m.episodeId === episodeId);
    const header = this.got[at] as Extract<WatchMessage, { type: 'episode' }>;
    const turns = [...header.turns];
    const ledgers: Record<string, string[]> = { ...header.ledgers };
    for (const m of this.got.slice(at + 1)) {
      if (m.type === 'turn' && m.episodeId === episodeId) turns.push(m.turn);
      if (m.type === 'ledger' && m.episodeId === episodeId) (ledgers[m.seat] ??= []).push(...m.lines);
    }
    return { note: header.note, turns, ledgers };
  }
}

const noTimer = () => {};
const plan = (n: number) => Array.from({ length: n }, (_, i) => ({ episodeId: `e${i}`, mode: 'agents', scenario: `s${i}`, maxTurns: 20 }));
const turn = (t: number, seat: string, argument: string): TurnRecord => ({ turn: t, seat, action: { type: 'speak', argument }, atMs: 10 * t, provider: 'openai', model: 'gpt-3.5-turbo', usage: { prompt: 1000, completion: 100 } }) as TurnRecord;
const record = (episodeId: string, turns: TurnRecord[]): EpisodeRecord => ({ episodeId, mode: 'agents', status: 'ok', seats: [], turns, termination: { reason: 'max_turns' } }) as unknown as EpisodeRecord;

describe('WatchHub', () => {
  it('lists planned episodes to a new watcher, then sends coalesced row changes on flush', () => {
    const hub = new WatchHub('run1', { schedule: noTimer });
    hub.plan(plan(3));
    hub.flush();
    const w = new FakeSink();
    expect(hub.attach(w)).toBe(true);
    expect(w.of('run')[0]).toMatchObject({ runId: 'run1', total: 3, ended: false });
    expect(w.of('rows')[0]!.rows.map((r) => [r.episodeId, r.state])).toEqual([['e0', 'queued'], ['e1', 'queued'], ['e2', 'queued']]);
    hub.prepared('e1');
    hub.ledgerLine('e1', 'agent1', '{"v":1,"type":"seat.welcome","id":"a"}');
    hub.ledgerLine('e1', 'agent1', '{"v":1,"type":"turn.request","id":"b","turn":0}');
    hub.turn('e1', turn(0, 'agent1', 'hi'));
    w.got.length = 0;
    hub.flush();
    // One message for all the changes of e1 since the last flush, with its latest state.
    expect(w.of('rows')).toHaveLength(1);
    expect(w.of('rows')[0]!.rows).toEqual([expect.objectContaining({ episodeId: 'e1', state: 'playing', turns: 1, tokens: 1100 })]);
    expect(w.of('rows')[0]!.rows[0]!.costUsd).toBeGreaterThan(0);
  });

  it('sends an opened episode its snapshot, then its turns and ledger lines as they come, and nothing of others', () => {
    const hub = new WatchHub('run1', { schedule: noTimer });
    hub.plan(plan(2));
    for (const e of ['e0', 'e1']) hub.prepared(e);
    hub.ledgerLine('e0', 'agent1', 'L1');
    hub.turn('e0', turn(0, 'agent1', 'first'));
    const w = new FakeSink();
    hub.attach(w);
    hub.open(w, 'e0');
    expect(w.view('e0')).toMatchObject({ ledgers: { agent1: ['L1'] }, turns: [expect.objectContaining({ turn: 0, action: { type: 'speak', argument: 'first' } })] });
    hub.turn('e0', turn(1, 'agent2', 'second'));
    hub.ledgerLine('e0', 'agent2', 'L2');
    hub.turn('e1', turn(0, 'agent1', 'elsewhere'));
    hub.ledgerLine('e1', 'agent1', 'L3');
    expect(w.of('turn').map((m) => m.turn.action?.argument)).toEqual(['first', 'second']);
    expect(w.of('ledger').at(-1)).toEqual({ type: 'ledger', episodeId: 'e0', seat: 'agent2', lines: ['L2'] });
    expect(w.view('e0').ledgers).toEqual({ agent1: ['L1'], agent2: ['L2'] });
    // Unknown ids are ignored (a watcher asks for what it likes; only listed episodes answer).
    hub.open(w, 'nope');
    expect(w.of('episode')).toHaveLength(1);
    // Opening the episode already open sends nothing again (issue 35: 30 opens once queued 30 copies).
    const sent = w.got.length;
    for (let i = 0; i < 30; i++) hub.open(w, 'e0');
    expect(w.got.length).toBe(sent);
  });

  it("paces an opened episode by the bytes its watcher's socket holds, and drops a watcher that falls behind on rows", () => {
    const hub = new WatchHub('run1', { schedule: noTimer, limits: { maxBacklog: 5, chunkBytes: 100 } });
    hub.plan(plan(1));
    hub.prepared('e0');
    const slow = new FakeSink();
    const fast = new FakeSink();
    hub.attach(slow);
    hub.attach(fast);
    hub.open(slow, 'e0');
    hub.open(fast, 'e0');
    // The slow watcher's socket holds a chunk already: nothing more is queued to it, whatever happens.
    slow.queuedBytes = 100;
    const before = slow.got.length;
    for (let i = 0; i < 100; i++) hub.ledgerLine('e0', 'agent1', `line ${i}`);
    expect(slow.got.length).toBe(before);
    expect(fast.view('e0').ledgers.agent1).toHaveLength(100);
    // Once it has written, it gets the lines in chunks of about chunkBytes.
    slow.queuedBytes = 0;
    hub.drained(slow);
    expect(slow.view('e0').ledgers.agent1).toEqual(fast.view('e0').ledgers.agent1);
    expect(slow.of('ledger').length).toBeGreaterThan(1);
    for (const m of slow.of('ledger')) expect(m.lines.join('').length).toBeLessThanOrEqual(100);
    // Too many packets (or bytes) waiting when rows are sent: dropped rather than buffered.
    slow.queued = 6;
    hub.finished(record('e0', []));
    hub.flush();
    expect(slow.closed).toMatch(/fell behind/);
    expect(hub.watchers).toBe(1);
  });

  it('keeps turns and ledgers only for the latest finished episodes, and caps each episode', () => {
    const hub = new WatchHub('run1', { schedule: noTimer, limits: { keepFinished: 2, maxDetailBytes: 100 } });
    hub.plan(plan(4));
    for (const e of ['e0', 'e1', 'e2', 'e3']) hub.prepared(e);
    for (let i = 0; i < 50; i++) hub.ledgerLine('e3', 'agent1', 'x'.repeat(10));
    for (const e of ['e0', 'e1', 'e2']) hub.finished(record(e, [turn(0, 'agent1', 'a')]));
    const w = new FakeSink();
    hub.attach(w);
    hub.open(w, 'e0');
    expect(w.view('e0')).toMatchObject({ turns: [], ledgers: {}, note: expect.stringMatching(/latest finished/) });
    hub.open(w, 'e2');
    expect(w.view('e2').turns).toHaveLength(1);
    hub.open(w, 'e3');
    const e3 = w.view('e3');
    expect(e3.ledgers.agent1!.join('').length).toBeLessThanOrEqual(100);
    expect(e3.note).toMatch(/cut at/);
    hub.flush();
    expect(w.of('rows').at(-1)!.rows.find((r) => r.episodeId === 'e0')).toMatchObject({ state: 'done', turns: 1, ending: 'max_turns' });
  });

  it('refuses watchers beyond the limit and tells them the run ended', () => {
    const hub = new WatchHub('run1', { schedule: noTimer, limits: { maxWatchers: 1 } });
    const a = new FakeSink();
    const b = new FakeSink();
    expect(hub.attach(a)).toBe(true);
    expect(hub.attach(b)).toBe(false);
    expect(b.closed).toMatch(/too many watchers/);
    hub.end();
    expect(a.of('run').at(-1)).toMatchObject({ ended: true });
    expect(b.got).toEqual([]);
  });

  it("ends with the run's summary, and serves a finished episode's details from an archive", () => {
    const archive = (id: string) => (id === 'e0' ? { turns: [turn(0, 'agent1', 'from disk')], ledgers: { agent1: ['{"type":"seat.welcome"}'] }, cut: false } : null);
    const hub = new WatchHub('run1', { schedule: noTimer, archive });
    hub.plan(plan(3));
    hub.finished(record('e0', [turn(0, 'agent1', 'a')]));
    hub.finished({ ...record('e1', []), status: 'failed' } as EpisodeRecord);
    hub.end();
    const w = new FakeSink();
    hub.attach(w);
    expect(w.of('run')[0]).toMatchObject({ ended: true, summary: { done: 1, failed: 1, unfinished: 1, tokens: 1100 } });
    hub.open(w, 'e0');
    expect(w.of('episode')[0]).toMatchObject({ episodeId: 'e0' });
    expect(w.of('turn').map((m) => m.turn.action?.argument)).toEqual(['from disk']);
    expect(w.of('ledger')).toEqual([{ type: 'ledger', episodeId: 'e0', seat: 'agent1', lines: ['{"type":"seat.welcome"}'] }]);
    hub.open(w, 'e2');
    expect(w.of('episode')[1]!.note).toBe('Not started yet.');
  });
});
