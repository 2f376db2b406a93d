import { describe, expect, it } from 'vitest';
import { ScriptedClient } from '../testing/fake-judge.js';
import { clScenario, episode } from '../testing/fixtures.js';
import { parseDealTags } from './deal-tags.js';
import { judgeEpisode } from './judge.js';
import { judgeCalls } from './prompt.js';

const deal = (content: string) => {
  const r = parseDealTags(content);
  return r.ok ? r.value.deal : r.error.code;
};

describe('the paper deal answer in reasoning and answer tags (appendix H.2)', () => {
  it('reads the tag form, with the price when the answer is yes', () => {
    expect(deal('<reasoning>They settled on $70.</reasoning>\n<answer>yes</answer>\n<price>$70</price>')).toEqual({ deal: true, price: 70, reasoning: 'They settled on $70.' });
    expect(deal('<reasoning>The buyer walked away.</reasoning><answer>No</answer><price>none</price>')).toEqual({ deal: false, price: null, reasoning: 'The buyer walked away.' });
    expect(deal('<Reasoning> Agreed at 1,200 dollars. </Reasoning>\n<Answer> Yes. </Answer>\n<Price>1,200.50</Price>')).toEqual({ deal: true, price: 1200.5, reasoning: 'Agreed at 1,200 dollars.' });
  });

  it('is tolerant of unclosed tags, an untagged "Answer:" line and the JSON form, and refuses a reply with no yes/no', () => {
    expect(deal('<reasoning>They shook hands\n<answer>yes')).toEqual({ deal: true, price: null, reasoning: 'They shook hands' });
    expect(deal('They never agreed.\nAnswer: no')).toEqual({ deal: false, price: null, reasoning: '' });
    expect(deal('{"deal": {"reasoning": "r", "deal_reached": true, "price": 65}}')).toEqual({ deal: true, price: 65, reasoning: 'r' });
    expect(deal('<answer>maybe</answer>')).toBe('judge/no_answer');
    expect(deal('They talked for a while.')).toBe('judge/no_answer');
  });

  it('asks the paper deal question in H.2\'s order with the tag format, and reads the tag reply into the judgement', async () => {
    const s = clScenario();
    const ep = episode({ scenario: s, moves: [['a', 'speak', 'Would you take $70?'], ['b', 'speak', 'Deal.']] });
    const call = judgeCalls(ep, s, 'full', 'paper').find((c) => c.askDeal)!;
    expect(call).toMatchObject({ structured: false, answerForm: 'tags' });
    const text = call.messages[0]!.content;
    const at = (needle: string) => text.indexOf(needle);
    expect(at('reached a deal')).toBeLessThan(at("Cat's goal: Buy the bike cheaply"));
    expect(at("Cat's goal")).toBeLessThan(at("Dan's goal: Sell the bike dearly"));
    expect(at("Dan's goal")).toBeLessThan(at('Turn #1\nCat said: "Would you take $70?"'));
    expect(at('Turn #1')).toBeLessThan(at('<reasoning>'));
    expect(at('<reasoning>')).toBeLessThan(at('<answer>yes or no</answer>'));
    expect(text).not.toMatch(/schema|deal_reached|"type"/);
    // Parley's own view keeps the JSON deal question.
    expect(judgeCalls(ep, s, 'full', 'parley').find((c) => c.askDeal)).toMatchObject({ structured: true });

    let n = 0;
    const client = new ScriptedClient((req) => {
      const t = req.messages[0]!.content;
      if (t.includes('<answer>yes or no</answer>')) return n++ === 0 ? 'I believe they agreed.' : '<reasoning>They agreed at $70.</reasoning><answer>yes</answer><price>70</price>';
      const seats = ['a', 'b'];
      const dims = ['believability', 'relationship', 'knowledge', 'secret', 'social_rules', 'financial_and_material_benefits', 'goal'];
      return JSON.stringify({ evaluations: Object.fromEntries(seats.map((x) => [x, Object.fromEntries(dims.map((d) => [d, { reasoning: 'r', score: 0 }]))])) });
    });
    const j = await judgeEpisode(ep, s, { client, spec: 'openai:gpt-4', visibility: 'full', view: 'paper' });
    expect(j.deal).toEqual({ ok: true, deal: true, price: 70, reasoning: 'They agreed at $70.' });
    // The unreadable first answer got one reformat request in the tag format, holding the bad text.
    const reformat = client.requests.find((r) => r.messages[0]!.content.includes('does not follow the answer format'))!;
    expect(reformat.messages[0]!.content).toContain('Text: I believe they agreed.');
    expect(reformat.messages[0]!.content).toContain('<answer>yes or no</answer>');
    expect(reformat.json).toBeUndefined();
  });
});
