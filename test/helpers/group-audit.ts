import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { leakedRuns, ownSideTexts, stringsIn } from './secret-runs.js';

interface SeatFacts { seat: string; goal: string; secret: string; hints: Array<{ text: string }>; character: object; task: unknown }
interface ScenarioFacts { id: string; seats: SeatFacts[]; narrative: Array<{ text: string; visibleTo: 'all' | string[] }> }
interface EpisodeFacts { episodeId: string; scenarioId: string; mode: 'script' | 'agents' | 'mindreaders'; seats: Array<{ seat: string }> }

const inJson = (s: string) => JSON.stringify(s).slice(1, -1);
const readJsonl = <T>(file: string): T[] => readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as T);

/**
 * The isolation audit for every ordered pair of seats of a group (or any) episode, from the run
 * directory's files: does seat A's ledger hold seat B's goal or secret, verbatim or as a run of four
 * content words (secret-runs.ts) outside the public moves? It must exactly when A reads B's mind: in
 * mindreaders mode along the `reads` graph (every pair when absent), never in agents mode. A verbatim
 * goal must first arrive in a `peer.state` frame. Returns the violations and the pairs checked (so an
 * empty list is not a vacuous pass).
 */
export function auditSeatPairs(dir: string, reads?: Record<string, string[]>): { violations: string[]; pairs: number; deliveries: number } {
  const violations: string[] = [];
  let pairs = 0;
  let deliveries = 0;
  const scenarios = new Map(readJsonl<ScenarioFacts>(join(dir, 'scenarios.jsonl')).map((s) => [s.id, s]));
  for (const ep of readJsonl<EpisodeFacts>(join(dir, 'episodes.jsonl'))) {
    if (ep.mode === 'script') continue;
    const scenario = scenarios.get(ep.scenarioId)!;
    for (const reader of scenario.seats) {
      const file = join(dir, 'ledgers', ep.episodeId, `${reader.seat}.jsonl`);
      if (!existsSync(file)) {
        violations.push(`${ep.episodeId}: ledger ${reader.seat}.jsonl missing`);
        continue;
      }
      const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
      const text = lines.join('\n');
      if (!text.includes(inJson(reader.goal))) violations.push(`${ep.episodeId}/${reader.seat}: own goal not found (the audit would be vacuous)`);
      const frames = lines.map((l) => JSON.parse(l) as { type: string });
      const private_ = frames.filter((f) => f.type !== 'turn.event').flatMap((f) => stringsIn(f));
      const readsFrom = (source: string) => ep.mode === 'mindreaders' && (!reads || (reads[reader.seat] ?? []).includes(source));
      // What the seat holds legitimately: its own side, and the seats whose minds it reads (a buyer's goal
      // shares words with the other buyer's: reading one is not a leak of the other).
      const mine = [
        ...ownSideTexts(scenario, reader.seat),
        ...scenario.seats.filter((s) => s.seat !== reader.seat && readsFrom(s.seat)).flatMap((s) => [s.goal, s.secret, ...stringsIn(s.task)]),
      ];
      for (const source of scenario.seats.filter((s) => s.seat !== reader.seat)) {
        pairs += 1;
        const expected = readsFrom(source.seat);
        const own = ownSideTexts(scenario, reader.seat);
        const verbatim = [source.goal, source.secret].filter((t) => t.trim() !== '' && !own.some((m) => m.includes(t)));
        const held = verbatim.filter((t) => text.includes(inJson(t)));
        const runs = expected ? [] : leakedRuns({ secrets: [source.goal, source.secret], allowed: mine }, private_);
        const where = `${ep.episodeId} (${ep.mode}) ${reader.seat}<-${source.seat}`;
        if (!expected) {
          if (held.length) violations.push(`${where}: holds the other seat's ${held.map((t) => (t === source.goal ? 'goal' : 'secret')).join(' and ')} verbatim`);
          if (runs.length) violations.push(`${where}: holds runs of the other seat's goal or secret: ${runs.join(' | ')}`);
          continue;
        }
        if (held.length !== verbatim.length) {
          violations.push(`${where}: the other seat's goal and secret never arrived`);
          continue;
        }
        const first = lines.findIndex((l) => verbatim.some((t) => l.includes(inJson(t))));
        if (frames[first]!.type !== 'peer.state') violations.push(`${where}: first arrived in a ${frames[first]!.type} frame, not peer.state`);
        else deliveries += 1;
      }
    }
  }
  return { violations, pairs, deliveries };
}
