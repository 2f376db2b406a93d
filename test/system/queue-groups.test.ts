import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EpisodeRecord } from '../../protocol/index.js';
import { auditSeatPairs } from '../helpers/group-audit.js';
import { parley, within } from '../helpers/processes.js';
import { queueSuite } from '../helpers/queue-suite.js';

/**
 * Issue 23: group episodes through the queue (`parley run --queue` and one `parley worker` on a real
 * redis-server): three seats per episode, each in its own agent process of the worker, the directed
 * mindreading map carried to the worker, and the seat-pair audit clean on the collected ledgers.
 */
describe('groups on the queue (real Redis)', () => {
  const suite = queueSuite('queue-groups');
  const { tmp, procs } = suite;

  it("agents and mindreaders with --mindread 'agent2<-agent1,agent3': every record, three processes each, ledgers as the map says", async () => {
    const out = join(tmp.path, 'run');
    // Six episodes of three seats, two at a time, multiplexed: 3 agent processes (one seat a process started 9,
    // the default of 4 at a time 21), still never two seats of one episode in one (asserted below).
    const worker = parley(['worker', '--queue', suite.redis.url, '--concurrency', '2', '--multiplex']);
    procs.push(worker);
    const coordinator = parley(['run', '--queue', suite.redis.url, '--scenarios', 'builtin', '--subset', 'groups', '--modes', 'agents,mindreaders', '--mindread', 'agent2<-agent1,agent3', '--out', out]);
    procs.push(coordinator);
    const code = await within(coordinator.exited, 120_000, 'coordinator', [coordinator, worker]);
    expect(code, [...coordinator.stdout, ...coordinator.stderr].join('\n')).toBe(0);
    const records = readFileSync(join(out, 'episodes.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => EpisodeRecord.parse(JSON.parse(l)));
    expect(records).toHaveLength(6);
    for (const r of records) {
      expect(r.status).toBe('ok');
      expect(new Set(r.seats.map((s) => s.pid)).size).toBe(3);
    }
    const audit = auditSeatPairs(out, { agent2: ['agent1', 'agent3'] });
    expect(audit.violations).toEqual([]);
    expect(audit.deliveries).toBe(6); // 3 scenarios × agent2 reading two seats
    worker.child.kill('SIGTERM');
    expect(await within(worker.exited, 30_000, 'worker stops', [worker])).toBe(0);
  }, 180_000);
});
