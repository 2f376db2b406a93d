import type { Mode } from '../../protocol/index.js';
import type { SimulationProtocol } from '../../simulation/index.js';
import type { Scenario } from '../../scenarios/model.js';
import { Episode } from '../episode.js';
import type { ForkPlan } from '../episode-plan.js';
import { FakeClock } from '../fake-clock.js';
import { MemoryLedger } from '../ledger.js';
import type { ConnectionOptions } from '../net/agent-connection.js';
import { MemoryTransport } from '../net/memory-transport.js';
import { SeatRegistry } from '../seat-registry.js';
import { makeLimits } from '../world.js';

export interface HarnessOptions {
  maxTurns?: number;
  turnDeadlineMs?: number;
  tokenTtlMs?: number;
  reconnectGraceMs?: number;
  connection?: ConnectionOptions;
  /** The run's simulation protocol (absent: `parley`). */
  protocol?: SimulationProtocol;
  /** Play the episode as a fork of a recorded one (its prefix replayed). */
  fork?: ForkPlan;
}

/**
 * An episode wired to the in-process transport, a fake clock and memory ledgers: what the engine and
 * connection unit tests drive.
 */
export function harness(scenario: Scenario, mode: Mode, o: HarnessOptions = {}) {
  const clock = new FakeClock();
  const registry = new SeatRegistry({ clock, reconnectGraceMs: o.reconnectGraceMs ?? 0 });
  const transport = new MemoryTransport(registry, { clock, ...o.connection });
  const ledgers = new Map<string, MemoryLedger>();
  const episode = Episode.prepare(
    { episodeId: `ep-${scenario.id}-${mode}`, scenario, mode, repeat: 0, ...(o.fork ? { fork: o.fork } : {}) },
    {
      registry,
      clock,
      runId: 'test-run',
      limits: makeLimits(o.maxTurns ?? 20, o.turnDeadlineMs ?? 5_000),
      tokenTtlMs: o.tokenTtlMs ?? 60_000,
      ...(o.protocol ? { protocol: o.protocol } : {}),
      ledgerFor: (_ep, seat) => {
        const l = new MemoryLedger();
        ledgers.set(seat, l);
        return l;
      },
    },
  );
  const token = (seat: string) => {
    const t = episode.tokens.get(seat);
    if (!t) throw new Error(`no token for ${seat}`);
    return t;
  };
  return { clock, registry, transport, ledgers, episode, token };
}
