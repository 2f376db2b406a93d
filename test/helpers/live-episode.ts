import type { Scenario } from '../../scenarios/model.js';
import { systemClock } from '../../orchestrator/clock.js';
import { Episode } from '../../orchestrator/episode.js';
import { MemoryLedger } from '../../orchestrator/ledger.js';
import { closeServer, createHttpServer, listen } from '../../orchestrator/net/http-server.js';
import { attachAgentEndpoint } from '../../orchestrator/net/ws-endpoint.js';
import type { PendingLimits } from '../../orchestrator/net/pending-connections.js';
import { SeatRegistry } from '../../orchestrator/seat-registry.js';
import { makeLimits } from '../../orchestrator/world.js';
import { openFixture } from '../fixtures/scenarios.js';

/**
 * One `agents` episode served over a real HTTP server on port 0, its seats waiting for agents:
 * tests host seats with real agent processes and hand-driven WebSocket agents.
 */
export async function liveEpisode(o: { scenario?: Scenario; reconnectGraceMs?: number; maxStrikes?: number; turnDeadlineMs?: number; pendingLimits?: PendingLimits } = {}) {
  const registry = new SeatRegistry({ reconnectGraceMs: o.reconnectGraceMs ?? 0 });
  const server = createHttpServer();
  const endpoint = attachAgentEndpoint(server, registry, { ...(o.maxStrikes ? { maxStrikes: o.maxStrikes } : {}), ...(o.pendingLimits ? { pendingLimits: o.pendingLimits } : {}) });
  const port = await listen(server, 0);
  const url = `ws://127.0.0.1:${port}/agent`;
  const ledgers = new Map<string, MemoryLedger>();
  const episode = Episode.prepare(
    { episodeId: 'live-1', scenario: o.scenario ?? openFixture(3), mode: 'agents', repeat: 0 },
    {
      registry,
      clock: systemClock,
      runId: 'live',
      limits: makeLimits(20, o.turnDeadlineMs ?? 15_000),
      tokenTtlMs: 30_000,
      ledgerFor: (_e, seat) => {
        const l = new MemoryLedger();
        ledgers.set(seat, l);
        return l;
      },
    },
  );
  const token = (seat: string) => episode.tokens.get(seat)!;
  return {
    url,
    episode,
    ledgers,
    token,
    registry,
    async close() {
      endpoint.close();
      await closeServer(server);
    },
  };
}
