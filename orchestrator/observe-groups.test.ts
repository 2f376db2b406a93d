import { describe, expect, it } from 'vitest';
import { observationFrames, observe } from './observe.js';
import { makeLimits, type World } from './world.js';
import { type Mode } from '../protocol/index.js';
import { PAPER_PROTOCOL, PARLEY_PROTOCOL, type SimulationProtocol } from '../simulation/index.js';
import { generateGroupScenarios } from '../scenarios/generate/groups.js';
import type { Scenario } from '../scenarios/model.js';
import { leakedRuns, ownSideTexts, stringsIn } from '../test/helpers/secret-runs.js';

/**
 * The paraphrase-aware isolation audit for every ordered seat pair of the built-in groups, on `observe()`
 * (what a seat is sent at the start): under both protocols, in agents mode no seat receives a run of four
 * content words of another seat's goal or secret; in mindreaders mode it receives them exactly along the
 * `--mindread` map (every pair without one), and then only in `peer.state` frames.
 */
describe('observe() for groups: every seat pair', () => {
  const groups = generateGroupScenarios(1);
  const world = (scenario: Scenario, mode: Mode, protocol: SimulationProtocol): World => ({ episodeId: `${scenario.id}-${mode}`, scenario, mode, limits: makeLimits(20, 60_000), protocol });

  const received = (w: World, seat: string) => {
    const frames = observationFrames(observe(w, seat));
    return {
      all: frames.flatMap((f) => stringsIn(f)),
      peerState: frames.filter((f) => f.type === 'peer.state').map((f) => (f as { state: { seat: string } }).state.seat),
    };
  };

  it.each([['parley', PARLEY_PROTOCOL], ['paper', PAPER_PROTOCOL]] as const)('agents mode (%s): no other seat\'s goal or secret, verbatim or as four content words', (_name, protocol) => {
    let pairs = 0;
    for (const scenario of groups) {
      const w = world(scenario, 'agents', protocol);
      for (const reader of scenario.seats) {
        const got = received(w, reader.seat);
        expect(got.peerState).toEqual([]);
        for (const other of scenario.seats.filter((s) => s !== reader)) {
          pairs++;
          expect(leakedRuns({ secrets: [other.goal, other.secret], allowed: ownSideTexts(scenario, reader.seat) }, got.all), `${scenario.id} ${reader.seat}<-${other.seat}`).toEqual([]);
          for (const t of [other.goal, other.secret]) expect(got.all.some((x) => x.includes(t))).toBe(false);
        }
      }
    }
    expect(pairs).toBe(18);
  });

  it('mindreaders: everyone reads everyone by default; with a map, only along its edges', () => {
    const graph = { agent1: ['agent2'], agent3: ['agent1', 'agent2'] };
    for (const scenario of groups) {
      for (const [protocol, reads] of [[PARLEY_PROTOCOL, undefined], [{ ...PARLEY_PROTOCOL, mindread: graph }, graph]] as const) {
        const w = world(scenario, 'mindreaders', protocol);
        for (const reader of scenario.seats) {
          const expected = scenario.seats.filter((s) => s !== reader && (!reads || (reads as Record<string, string[]>)[reader.seat]?.includes(s.seat))).map((s) => s.seat);
          const got = received(w, reader.seat);
          expect(got.peerState, `${scenario.id} ${reader.seat}`).toEqual(expected);
          for (const other of scenario.seats.filter((s) => s !== reader && !expected.includes(s.seat))) {
            const allowed = [...ownSideTexts(scenario, reader.seat), ...scenario.seats.filter((s) => expected.includes(s.seat)).flatMap((s) => [s.goal, s.secret, ...stringsIn(s.task)])];
            expect(leakedRuns({ secrets: [other.goal, other.secret], allowed }, got.all), `${scenario.id} ${reader.seat}<-${other.seat}`).toEqual([]);
          }
        }
      }
    }
  });
});
