import type { Action, ScriptBackground, ScriptTurn } from '../../../../protocol/index.js';

/** Script mode for open-ended scenarios: a short polite exchange that ends with the first seat leaving. */
export function writeOpenScript(bg: ScriptBackground, maxTurns: number): ScriptTurn[] {
  const order = bg.scenario.seats;
  const nameOf = (seat: string | undefined) => bg.seats.find((s) => s.seat === seat)?.profile.name?.split(' ')[0];
  const greet = (seat: string | undefined) => (nameOf(seat) ? `, ${nameOf(seat)}` : '');
  const lines: Action[] = [
    { type: 'speak', argument: `Hi${greet(order[1])}! Do you have a minute? There's something I'd like to talk about.` },
    { type: 'speak', argument: `Of course${greet(order[0])}. What's on your mind?` },
    { type: 'speak', argument: "It matters a lot to me, and I'd like us to find a way that works for both of us." },
    { type: 'speak', argument: "I appreciate you telling me. Let's work it out together." },
    { type: 'speak', argument: 'Thank you, that means a lot. I should get going now.' },
  ];
  const room = Math.max(0, maxTurns - 1);
  const talk = lines.slice(0, Math.min(lines.length, room));
  const actions: Action[] = [...talk, { type: 'leave', argument: '' }];
  return actions.map((action, i) => ({ seat: order[i % order.length]!, action }));
}
