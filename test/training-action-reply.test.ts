import { describe, expect, it } from 'vitest';
import { ACTION_TYPES, type Action } from '../protocol/index.js';
import { seatAddressees } from '../agent-node/policies/llm/seat-prompt.js';
import { parseAction } from '../agent-node/policies/llm/parse-action.js';
import { aliceView, groupView, turnRequest } from '../agent-node/policies/llm/test-views.js';
import { actionReply } from '../training/examples.js';

/** A training example's reply is what the live seat's reply schema asks for, and reads back to the same move. */
describe('actionReply', () => {
  it('two seats: {"action_type", "argument"} only, as before', () => {
    const addressees = seatAddressees(aliceView(), turnRequest(2));
    expect(addressees).toBeNull();
    expect(actionReply({ type: 'speak', argument: 'hi' }, addressees)).toBe('{"action_type":"speak","argument":"hi"}');
  });

  it('a group: "to" always present (names for a private move, [] for a public one), and parsed back to the same seats', () => {
    const view = groupView();
    const addressees = seatAddressees(view, turnRequest(2))!;
    expect(addressees).not.toBeNull();
    const others = view.welcome.scenario.seats.filter((s) => s !== view.welcome.seat);
    const whisper: Action = { type: 'speak', argument: 'psst', to: [others[1]!] };
    const reply = JSON.parse(actionReply(whisper, addressees)) as { to: string[] };
    expect(reply.to).toEqual([addressees.names[1]]);
    expect(parseAction(actionReply(whisper, addressees), [...ACTION_TYPES], addressees)).toMatchObject({ ok: true, value: { type: 'speak', argument: 'psst', to: [others[1]] }, lenient: false });
    const open: Action = { type: 'speak', argument: 'hello all' };
    expect(JSON.parse(actionReply(open, addressees))).toEqual({ action_type: 'speak', argument: 'hello all', to: [] });
    const back = parseAction(actionReply(open, addressees), [...ACTION_TYPES], addressees);
    expect(back.ok && back.value.to).toBeUndefined();
  });
});
