import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { judgePair } from '../compare/naturalness.js';
import { ScriptedClient, validReply } from '../testing/fake-judge.js';
import { episode, type MoveSpec } from '../testing/fixtures.js';
import { importSotopia } from '../../scenarios/import/sotopia.js';
import { Scenario } from '../../scenarios/model.js';
import { genderAdjective } from '../../text/gender-word.js';
import { judgeEpisode } from './judge.js';
import { paperBackground, paperGoal, paperTranscript } from './paper-view.js';
import { judgeCalls } from './prompt.js';
import { describeWithData, sotopiaData, sotopiaMiniDir } from '../../test/helpers/reference-data.js';

/**
 * The paper judge and naturalness prompts carry SOTOPIA's judge information and nothing else. Each
 * prompt's context block is checked by subtraction: remove every value SOTOPIA's judge rendering held
 * (scenario text, names, age, gender, occupation, pronouns, public info, personality and values,
 * secrets, goals with hints); what remains must be framing words only. Any other field (relationship
 * label or story, Big Five, MBTI, moral or Schwartz values, decision style, task data, visibility notes)
 * leaves words behind and fails the test.
 */

// The one lookup of SOTOPIA's real files (../shared/data, else the scenarios-fetch cache).
const sotopia = sotopiaData();

/** Words of the paper view's own framing lines (paper-view.ts, prompt.ts, naturalness.ts). */
const FRAMING = new Set(
  "the context of this interaction scenario participants and s background goal is a year old pronouns personality values description secrets".split(' '),
);

function allowedValues(s: Scenario): string[] {
  const out: string[] = [...s.narrative.map((n) => n.text), s.judgeOnly];
  for (const seat of s.seats) {
    const c = seat.character;
    out.push(c.name, c.firstName ?? c.name.split(' ')[0]!, c.gender ? genderAdjective(c.gender) : '', c.occupation?.toLowerCase() ?? '', c.pronouns ?? '', c.publicInfo ?? '', c.personality ?? '', c.secret);
    out.push(seat.goal, ...seat.hints.map((h) => h.text));
    if (c.age !== undefined) out.push(String(c.age));
  }
  return out.filter((v) => v.trim() !== '').sort((a, b) => b.length - a.length);
}

/** The words left in `text` once every value SOTOPIA's judge rendering held is removed, framing words excepted. */
function extraWords(text: string, s: Scenario): string[] {
  let rest = text;
  for (const v of allowedValues(s)) rest = rest.split(v).join(' ');
  return (rest.toLowerCase().match(/[a-z]+/g) ?? []).filter((w) => !FRAMING.has(w));
}

/** A SOTOPIA-shaped instance of the project's own making, every profile field SOTOPIA's judge lacked marked. */
function fixture(): Scenario {
  const character = (id: string, name: string, n: number) => ({
    id, name, firstName: name.split(' ')[0], lastName: name.split(' ')[1], age: 30 + n, gender: n ? 'Woman' : 'Man', occupation: 'Baker',
    pronouns: n ? 'she/her' : 'he/him', publicInfo: `${name} bakes bread.`, personality: `${name} is warm and careful.`,
    bigFive: 'BIGFIVEMARK', moralValues: ['MORALMARK'], schwartzValues: ['SCHWARTZMARK'], decisionStyle: 'DECISIONMARK', mbti: 'MBTIMARK',
    secret: `${name} hid a letter.`,
  });
  return Scenario.parse({
    id: 'fx-1', envId: 'fx-1', pairId: 'p1', source: 'test', subsets: ['hard'], kind: 'open',
    narrative: [{ text: 'Two bakers meet at dawn.', visibleTo: 'all' }, { text: 'One oven is broken.', visibleTo: ['a'] }],
    judgeOnly: 'The oven was fixed yesterday.',
    relationship: { level: 0, story: 'STORYMARK they met at school.' },
    seats: [
      { seat: 'a', character: character('c-a', 'Ana Ruiz', 1), goal: 'Borrow the oven', hints: [{ kind: 'strategy_hint', text: 'Offer bread in return.' }], secret: 'Ana Ruiz hid a letter.' },
      { seat: 'b', character: character('c-b', 'Ben Cole', 0), goal: 'Keep the oven', secret: 'Ben Cole hid a letter.' },
    ],
  });
}

function checkScenario(s: Scenario) {
  const ep = episode({ scenario: s, moves: [[s.seats[0]!.seat, 'speak', 'Good morning.'], [s.seats[1]!.seat, 'none', ''], [s.seats[1]!.seat, 'speak', 'Hello.']] });
  const calls = judgeCalls(ep, s, 'full', 'paper');
  const main = calls[0]!;
  expect(main.structured).toBe(false);
  expect(main.messages).toHaveLength(1);
  const user = main.messages[0]!.content;
  const background = paperBackground(s);
  expect(user.startsWith(background)).toBe(true);
  expect(extraWords(background, s), s.id).toEqual([]);
  for (const seat of s.seats) {
    expect(user).toContain(seat.character.secret);
    expect(user).toContain(seat.goal);
  }
  for (const label of ['Relationship', 'Big Five', 'MBTI', 'Moral values', 'Schwartz', 'Decision-making', 'private hints', 'private task data', 'known only to', 'evaluator only']) expect(user).not.toContain(label);
  return ep;
}

describe('paper judge view', () => {
  it('carries only SOTOPIA judge fields, in its order, on a fixture of our own', () => {
    const s = fixture();
    checkScenario(s);
    const bg = paperBackground(s);
    for (const mark of ['BIGFIVEMARK', 'MORALMARK', 'SCHWARTZMARK', 'DECISIONMARK', 'MBTIMARK', 'STORYMARK', 'stranger']) expect(bg).not.toContain(mark);
    const lines = bg.split('\n');
    expect(lines.map((l) => l.split(':')[0])).toEqual(['The context of this interaction', 'Scenario', 'Participants', "Ana Ruiz's background", "Ben Cole's background", "Ana Ruiz's goal", "Ben Cole's goal"]);
    expect(lines[3]).toBe("Ana Ruiz's background: Ana Ruiz is a 31-year-old female baker. she/her pronouns. Ana Ruiz bakes bread. Personality and values description: Ana Ruiz is warm and careful. Ana's secrets: Ana Ruiz hid a letter.");
    expect(lines[5]).toBe("Ana Ruiz's goal: Borrow the oven Offer bread in return.");
  });

  it('renders the agents transcript as Turn #k lines from 1 then Name …, dropping "did nothing"; a script has no turn lines', () => {
    const s = fixture();
    const moves: MoveSpec[] = [['a', 'speak', 'Good morning.'], ['b', 'none', ''], ['b', 'leave', '']];
    expect(paperTranscript(episode({ scenario: s, moves }), s)).toBe('Turn #1\nAna Ruiz said: "Good morning."\nTurn #2\nTurn #3\nBen Cole left the conversation');
    expect(paperTranscript(episode({ scenario: s, mode: 'script', moves }), s)).toBe('Ana Ruiz said: "Good morning."\nBen Cole left the conversation');
  });

  it('keeps the parentheses the source put around a hint, as SOTOPIA\'s renderer did (issue 42)', () => {
    const seat = fixture().seats[0]!;
    expect(paperGoal({ ...seat, goal: 'Divide fairly', hints: [{ kind: 'extra_info', text: 'Extra information: books 5.', parenthesized: true }] })).toBe('Divide fairly (Extra information: books 5.)');
    const nested = [{ kind: 'extra_info', text: 'Extra information: x.', paren: 'open' }, { kind: 'strategy_hint', text: 'Hint: y.', paren: 'close' }] as const;
    expect(paperGoal({ ...seat, goal: 'Divide fairly', hints: [...nested] })).toBe('Divide fairly (Extra information: x. Hint: y.)');
    expect(paperGoal({ ...seat, goal: 'Divide fairly', hints: [{ kind: 'extra_info', text: 'Extra information: books 5.' }] })).toBe('Divide fairly Extra information: books 5.');
  });

  it('drops every move whose text contains "did nothing", a speech included, as SOTOPIA\'s judge did (issue 42)', () => {
    const s = fixture();
    const moves: MoveSpec[] = [['a', 'speak', 'I did nothing wrong.'], ['b', 'speak', 'Fine.']];
    expect(paperTranscript(episode({ scenario: s, moves }), s)).toBe('Turn #1\nTurn #2\nBen Cole said: "Fine."');
  });

  it('sends the paper judge request without response_format and records the view', async () => {
    const s = fixture();
    const ep = checkScenario(s);
    const client = new ScriptedClient(() => JSON.stringify(validReply(['a', 'b'])));
    const j = await judgeEpisode(ep, s, { client, spec: 'openai:gpt-4-0613', visibility: 'full', view: 'paper' });
    expect(client.requests.map((r) => r.json)).toEqual([undefined]);
    expect(j.judge.view).toBe('paper');
    expect(j.seats['a']).toMatchObject({ ok: true });
  });

  it('answers an unreadable paper judge reply with one reformat request to the reformat model, then no scores', async () => {
    const s = fixture();
    const ep = checkScenario(s);
    const judge = new ScriptedClient(() => 'I think they both did fine.');
    const reformatter = new ScriptedClient(() => 'Still prose.');
    const j = await judgeEpisode(ep, s, { client: judge, reformatClient: reformatter, spec: 'openai:gpt-4-0613', visibility: 'full', view: 'paper' });
    expect(judge.requests).toHaveLength(1);
    expect(reformatter.requests).toHaveLength(1);
    expect(reformatter.requests[0]!.json).toBeUndefined();
    // SOTOPIA's format_bad_output ran at obtain_chain's default temperature, 0.7; the judge itself at 0 (issue 42).
    expect(reformatter.requests[0]!.temperature).toBe(0.7);
    expect(judge.requests.every((r) => r.temperature === 0)).toBe(true);
    expect(reformatter.requests[0]!.messages[0]!.content).toContain('Text: I think they both did fine.');
    expect(j.seats['a']).toMatchObject({ ok: false, error: { code: 'judge/bad_json' } });
    expect(j.seats['b']).toMatchObject({ ok: false });
    // A reformat that parses gives the scores.
    const fixer = new ScriptedClient(() => JSON.stringify(validReply(['a', 'b'])));
    const ok = await judgeEpisode(ep, s, { client: new ScriptedClient(() => 'prose'), reformatClient: fixer, spec: 'openai:gpt-4-0613', visibility: 'full', view: 'paper' });
    expect(ok.seats['a']).toMatchObject({ ok: true });
  });

  it('scores a paper judge reply with prose around its JSON without a reformat request, as SOTOPIA parsed it', async () => {
    const s = fixture();
    const ep = checkScenario(s);
    const judge = new ScriptedClient(() => `Sure. My evaluation follows.\n${JSON.stringify(validReply(['a', 'b']))}\nThat is all.`);
    const reformatter = new ScriptedClient(() => 'unused');
    const j = await judgeEpisode(ep, s, { client: judge, reformatClient: reformatter, spec: 'openai:gpt-4-0613', visibility: 'full', view: 'paper' });
    expect(j.seats['a']).toMatchObject({ ok: true });
    expect(j.seats['b']).toMatchObject({ ok: true });
    expect(judge.requests).toHaveLength(1);
    expect(reformatter.requests).toHaveLength(0);
  });

  it('asks the appendix-E naturalness question with the annotators\' context only, no response_format', async () => {
    const s = fixture();
    const a = episode({ scenario: s, moves: [['a', 'speak', 'Hi.']] });
    const b = episode({ scenario: s, mode: 'script', moves: [['b', 'speak', 'Hey.']] });
    const client = new ScriptedClient(() => JSON.stringify({ reasoning: 'r', more_natural: '1' }));
    const v = await judgePair({ key: 'k', scenarioId: s.id, a, b, scenario: s }, true, client, undefined, 'paper');
    expect(v).toMatchObject({ ok: true, judge: 'fake:fake-judge', question: 'paper' });
    const req = client.requests[0]!;
    expect(req.json).toBeUndefined();
    expect(req.messages).toHaveLength(1);
    const text = req.messages[0]!.content;
    expect(text).toContain('Which of the two interactions sounds more like a natural interaction that two people would have in this scenario?');
    const context = text.slice(0, text.indexOf('Interaction 1:'));
    expect(extraWords(context, s)).toEqual([]);
    expect(text).not.toMatch(/repetition|over-politeness|without having been shared/);
    // The layout does not tell the agents episode from the script: no Turn lines for either.
    expect(text).not.toMatch(/Turn #/);
    expect(text).toContain('Interaction 1:\nAna Ruiz said: "Hi."');
    expect(text).toContain('Interaction 2:\nBen Cole said: "Hey."');
  });
});

/** The words of the deal question's and the naturalness question's own framing (prompt.ts, deal-tags.ts, naturalness.ts). */
const QUESTION_FRAMING = new Set([...FRAMING, ...'read two social goals conversation below say whether them reached deal'.split(' ')]);

/**
 * Every paper prompt an instance leads to — the judge call, the deal call of a Craigslist instance, the
 * naturalness comparison — checked by subtraction: its context carries SOTOPIA's judge fields only.
 */
async function checkEveryPaperPrompt(s: Scenario): Promise<void> {
  const ep = checkScenario(s);
  for (const seat of s.seats) {
    const c = seat.character;
    const judge = judgeCalls(ep, s, 'full', 'paper')[0]!.messages[0]!.content;
    for (const v of [c.bigFive, c.mbti, c.decisionStyle, ...(c.moralValues ?? []), ...(c.schwartzValues ?? [])]) {
      if (v && !allowedValues(s).some((a) => a.includes(v))) expect(judge, `${s.id}: ${v}`).not.toContain(v);
    }
  }
  if (s.kind === 'craigslist') {
    const deal = judgeCalls(ep, s, 'full', 'paper').find((c) => c.askDeal)!.messages[0]!.content;
    const context = deal.slice(0, deal.indexOf('The conversation:'));
    // The deal question carries the two goals only: no background, secret or task block.
    expect(context.split('\n').filter((l) => l.includes("'s goal:"))).toHaveLength(2);
    expect(extraWords(context, s).filter((w) => !QUESTION_FRAMING.has(w)), s.id).toEqual([]);
    for (const seat of s.seats) expect(context, s.id).not.toContain(seat.character.secret);
  }
  const script = episode({ scenario: s, mode: 'script', moves: [[s.seats[1]!.seat, 'speak', 'Hey.']] });
  const client = new ScriptedClient(() => JSON.stringify({ reasoning: 'r', more_natural: '1' }));
  const v = await judgePair({ key: 'k', scenarioId: s.id, a: ep, b: script, scenario: s }, true, client, undefined, 'paper');
  expect(v.ok, s.id).toBe(true);
  const text = client.requests[0]!.messages[0]!.content;
  expect(text).toContain('Which of the two interactions sounds more like a natural interaction that two people would have in this scenario?');
  const context = text.slice(0, text.indexOf('Interaction 1:'));
  expect(extraWords(context, s), s.id).toEqual([]);
  // The annotators' context has no judge-only text.
  if (s.judgeOnly.trim()) expect(context, s.id).not.toContain(s.judgeOnly);
}

/** The judge, deal and naturalness prompts of every instance in a SOTOPIA-shaped profile directory. */
function everyInstanceSuite(dir: () => string, expectKinds: readonly Scenario['kind'][]) {
  it('renders the paper judge, deal and naturalness prompts of every instance with no field SOTOPIA\'s prompts lacked', async () => {
    const scenarios = (await importSotopia(dir())).scenarios;
    expect(scenarios.length).toBeGreaterThan(0);
    for (const kind of expectKinds) expect(scenarios.some((s) => s.kind === kind), kind).toBe(true);
    for (const s of scenarios) await checkEveryPaperPrompt(s);
  });
}

describeWithData(sotopia, 'paper prompts on every real SOTOPIA instance (450)', () => everyInstanceSuite(() => sotopia.dir, ['mutual_friends', 'craigslist', 'open']));
describe('paper prompts on the SOTOPIA-shaped fixture (every clone)', () => everyInstanceSuite(sotopiaMiniDir, ['mutual_friends', 'craigslist', 'open']));
