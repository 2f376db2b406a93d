import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { RunDir } from '../run-dir.js';
import { ScriptedClient } from '../testing/fake-judge.js';
import { episode, mfScenario, openScenario } from '../testing/fixtures.js';
import { comparePairs, matchEpisodes } from './naturalness.js';

/**
 * The live naturalness requests, pinned: sha256 of every request `parley compare` sends for three pairs
 * under both questions, taken before `compare --batch` built its requests from the same function. A
 * change to the wording, order, schema or temperature of a live compare request fails here. Re-pinned
 * once on purpose: the paper question's conversations lost their agents-only `Turn #k` lines
 * (paperConversation), which told the judge which interaction was the script.
 */
function runDir(dir: string, episodes: ReturnType<typeof episode>[]): RunDir {
  return { dir, run: null, scenarios: new Map([mfScenario(), openScenario()].map((s) => [s.id, s])), episodes: episodes.map((record, i) => ({ record, raw: {}, line: i + 1 })), tornBytes: 0 };
}
const mf = mfScenario();
const op = openScenario();
const a = runDir('A', [
  episode({ scenario: mf, mode: 'script', moves: [['a', 'speak', 'Hello, do you know Jane?'], ['b', 'speak', 'I do.']] }),
  episode({ scenario: op, mode: 'script', moves: [['a', 'speak', 'Lovely weather.']] }),
  episode({ scenario: op, mode: 'script', repeat: 1, moves: [['b', 'speak', 'Shall we go?']] }),
]);
const b = runDir('B', [
  episode({ scenario: mf, mode: 'agents', moves: [['a', 'speak', 'Hi. Jane?'], ['b', 'speak', 'Yes, Jane.']] }),
  episode({ scenario: op, mode: 'agents', moves: [['a', 'speak', 'Hm.']] }),
  episode({ scenario: op, mode: 'agents', repeat: 1, moves: [['b', 'speak', 'Let us go.']] }),
]);

async function hashes(style: 'paper' | 'parley'): Promise<string[]> {
  const client = new ScriptedClient(() => JSON.stringify({ reasoning: 'r', more_natural: '2' }));
  await comparePairs(matchEpisodes(a, 'script', b, 'agents'), client, { seed: 7, concurrency: 1, style });
  return client.requests.map((r) => createHash('sha256').update(JSON.stringify(r)).digest('hex').slice(0, 16));
}

describe('live naturalness requests', () => {
  it('are byte for byte what they were (parley question)', async () => {
    expect(await hashes('parley')).toEqual(['6308936e70ded4dc', 'fa3297963358b056', 'f00364c777ff28f6']);
  });
  it('are byte for byte what they were (paper question)', async () => {
    expect(await hashes('paper')).toEqual(['af1f61f1c258b6e2', '937cad32092314e6', '85114002b42ef5a1']);
  });
});
