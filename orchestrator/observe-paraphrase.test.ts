import { beforeAll, describe, expect, it } from 'vitest';
import { observationFrames, observe } from './observe.js';
import { makeLimits } from './world.js';
import { PAPER_PROTOCOL, PARLEY_PROTOCOL, type SimulationProtocol } from '../simulation/index.js';
import { importSotopia } from '../scenarios/import/sotopia.js';
import type { Scenario } from '../scenarios/model.js';
import { describeWithData, sotopiaMiniDir, sotopiaData } from '../test/helpers/reference-data.js';
import { contentWords, leakedRuns, ownSideTexts, stringsIn } from '../test/helpers/secret-runs.js';

const data = sotopiaData();

describe('the paraphrase audit (runs of four content words)', () => {
  const secret = "Noah's secret identity as a stand-up comedian";

  it('normalises words and drops stop words', () => {
    expect(contentWords("Noah's secret identity as a Stand-up comedian")).toEqual(['noah', 'secret', 'identity', 'stand', 'comedian']);
  });

  it('catches a paraphrase that keeps four content words in a row, not a verbatim copy only', () => {
    expect(leakedRuns({ secrets: [secret], allowed: [] }, ["Ava's hidden tattoo and Noah's secret identity as a stand-up comedian"])).toEqual(['noah secret identity stand', 'secret identity stand comedian']);
    expect(leakedRuns({ secrets: [secret], allowed: [] }, ['The secret identities of Noah, stand-up comedians!'])).toEqual([]);
    expect(leakedRuns({ secrets: [secret], allowed: [] }, ['noah: SECRET identity — the stand-up comedian'])).toEqual(['noah secret identity stand', 'secret identity stand comedian']);
  });

  it('ignores fewer than four shared words, and runs the seat holds anyway', () => {
    expect(leakedRuns({ secrets: [secret], allowed: [] }, ['Noah is a comedian with a secret.'])).toEqual([]);
    expect(leakedRuns({ secrets: [secret], allowed: ['Everyone knows Noah secret identity stand-up comedian.'] }, [secret])).toEqual([]);
  });

  it('never joins words of two different texts into one run', () => {
    expect(leakedRuns({ secrets: [secret], allowed: [] }, ['noah secret', 'identity stand comedian'])).toEqual([]);
  });
});

/**
 * DESIGN invariant 3: every frame `observe()` builds for an agents-mode seat, under each protocol and
 * backgrounds rule, holds no run of four content words of the partner's secret that the seat's own side
 * and the public scenario do not also hold. Run on the project's SOTOPIA-shaped fixture on every clone,
 * and over SOTOPIA's real 450 instances where they are present.
 */
function auditSuite(dir: () => string, expected: { instances: number; storyLeaks: { atLeast: number; runs: string[] } }) {
  let scenarios: Scenario[];
  beforeAll(async () => {
    scenarios = (await importSotopia(dir())).scenarios;
  });

  /** Seats (episode × seat) that receive a leaked run, with the runs. */
  function leaks(protocol: SimulationProtocol): string[] {
    const found: string[] = [];
    for (const scenario of scenarios) {
      for (const seat of scenario.seats) {
        const world = { episodeId: 'audit', scenario, mode: 'agents' as const, limits: makeLimits(20, 1000), protocol };
        const received = observationFrames(observe(world, seat.seat)).flatMap((f) => stringsIn(f));
        const partners = scenario.seats.filter((p) => p.seat !== seat.seat);
        const runs = leakedRuns({ secrets: partners.map((p) => p.character.secret), allowed: ownSideTexts(scenario, seat.seat) }, received);
        if (runs.length) found.push(`${scenario.id}/${seat.seat}: ${runs.join(' | ')}`);
      }
    }
    return found;
  }

  it(`imports all ${expected.instances} instances`, () => {
    expect(scenarios).toHaveLength(expected.instances);
  });

  it.each([
    ['parley', PARLEY_PROTOCOL],
    ['paper, backgrounds code', PAPER_PROTOCOL],
    ['paper, backgrounds appendix', { ...PAPER_PROTOCOL, backgrounds: 'appendix' as const }],
    ['paper, backgrounds relationship', { ...PAPER_PROTOCOL, backgrounds: 'relationship' as const }],
    ['paper, judge-only text to script and mindreaders', { ...PAPER_PROTOCOL, leakJudgeOnly: ['script' as const, 'mindreaders' as const] }],
  ])('%s: none', (_, protocol) => {
    expect(leaks(protocol)).toEqual([]);
  });

  it('the audit is not vacuous: --show-relationship-story hands seats runs of secrets (the leak this closes)', () => {
    const found = leaks({ ...PARLEY_PROTOCOL, showRelationshipStory: true });
    expect(found.length).toBeGreaterThanOrEqual(expected.storyLeaks.atLeast);
    for (const run of expected.storyLeaks.runs) expect(found.some((f) => f.includes(run)), run).toBe(true);
  });
}

describe("no agents-mode seat of the project's SOTOPIA-shaped fixture receives a run of its partner's secret", () => {
  auditSuite(sotopiaMiniDir, { instances: 6, storyLeaks: { atLeast: 2, runs: ['relabel wholesale honey distributor'] } });
});

describeWithData(data, "no agents-mode seat of the 450 SOTOPIA instances receives a run of its partner's secret", () => {
  auditSuite(() => data.dir, { instances: 450, storyLeaks: { atLeast: 21, runs: ['descendant wealthy oil tycoon', 'secret identity stand comedian'] } });
});
