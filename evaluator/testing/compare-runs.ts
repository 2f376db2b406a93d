import type { RunDir } from '../run-dir.js';
import { episode, mfScenario, openScenario } from './fixtures.js';

/** A run directory in memory over the fixture scenarios (MutualFriends and open), for the compare tests. */
export function memoryRunDir(dir: string, episodes: ReturnType<typeof episode>[]): RunDir {
  return { dir, run: null, scenarios: new Map([mfScenario(), openScenario()].map((s) => [s.id, s])), episodes: episodes.map((record, i) => ({ record, raw: {}, line: i + 1 })), tornBytes: 0 };
}

/**
 * Two runs of the same three episodes (MutualFriends once, the open scenario at repeats 0 and 1): A in
 * script mode (every line says SCRIPTED), B in agents mode (AGENT). `failLastAgents` fails B's repeat 1.
 */
export function scriptAndAgentsRuns(failLastAgents = false): { a: RunDir; b: RunDir } {
  const mf = mfScenario();
  const op = openScenario();
  const a = memoryRunDir('A', [
    episode({ scenario: mf, mode: 'script', moves: [['a', 'speak', 'SCRIPTED mf']] }),
    episode({ scenario: op, mode: 'script', moves: [['a', 'speak', 'SCRIPTED open']] }),
    episode({ scenario: op, mode: 'script', repeat: 1, moves: [['a', 'speak', 'SCRIPTED open 2']] }),
  ]);
  const b = memoryRunDir('B', [
    episode({ scenario: mf, mode: 'agents', moves: [['a', 'speak', 'AGENT mf']] }),
    episode({ scenario: op, mode: 'agents', moves: [['a', 'speak', 'AGENT open']] }),
    episode({ scenario: op, mode: 'agents', repeat: 1, moves: [['a', 'speak', 'AGENT open 2']], ...(failLastAgents ? { status: 'failed' as const } : {}) }),
  ]);
  return { a, b };
}
