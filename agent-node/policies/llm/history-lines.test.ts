import { describe, expect, it } from 'vitest';
import { ACTION_TYPES, type Action, type TurnEvent } from '../../../protocol/index.js';
import { keptLines } from './history-lines.js';
import { paperHistory, paperMove } from './paper-render.js';
import { renderHistory, renderMove } from './render.js';

const event = (turn: number, seat: string, action: Action): TurnEvent => ({ v: 1, id: `e${turn}`, type: 'turn.event', turn, seat, action }) as TurnEvent;

describe('history lines kept per event', () => {
  it('renders once per event and renders again when any input of the line changed', () => {
    let calls = 0;
    const line = keptLines((turn, name, action) => `${++calls}:${turn}:${name}:${action.type}:${action.argument}`);
    const e = event(1, 'A', { type: 'speak', argument: 'hi' });
    expect(line(e, 'Ann')).toBe('1:1:Ann:speak:hi');
    expect(line(e, 'Ann')).toBe('1:1:Ann:speak:hi');
    expect(line(e, 'Ann [private to Bo]')).toBe('2:1:Ann [private to Bo]:speak:hi');
    e.action.argument = 'hello';
    expect(line(e, 'Ann [private to Bo]')).toBe('3:1:Ann [private to Bo]:speak:hello');
    e.action.type = 'action';
    expect(line(e, 'Ann [private to Bo]')).toBe('4:1:Ann [private to Bo]:action:hello');
    (e as { turn: number }).turn = 2;
    expect(line(e, 'Ann [private to Bo]')).toBe('5:2:Ann [private to Bo]:action:hello');
    expect(line(event(2, 'A', { type: 'action', argument: 'hello' }), 'Ann [private to Bo]')).toBe('6:2:Ann [private to Bo]:action:hello');
  });

  it('gives both renderers the text of rendering every move afresh, turn after turn', () => {
    const nameOf = (seat: string) => (seat === 'A' ? 'Ann' : 'Bo');
    const events: TurnEvent[] = [];
    const actions: Action[] = [
      { type: 'speak', argument: ' Hi "there"\nnext\u2028line ' },
      { type: 'non-verbal communication', argument: 'waves\t' },
      { type: 'action', argument: 'leaves a note\u0085' },
      { type: 'none', argument: '' },
      { type: 'speak', argument: 'psst', to: ['A'] },
      { type: 'leave', argument: '' },
    ];
    for (const [i, action] of actions.entries()) {
      events.push(event(i, i % 2 ? 'B' : 'A', action));
      const fresh = (move: typeof renderMove, between: string) => events.map((e) => move(e.turn, nameOf(e.seat) + (e.action.to ? ` [private to ${e.action.to.map(nameOf).join(', ')}]` : ''), e.action)).join(between);
      expect(renderHistory([...events].reverse(), nameOf)).toBe(fresh(renderMove, '\n'));
      // Under paper a blank line separates turns, as SOTOPIA's observations did.
      expect(paperHistory([...events].reverse(), nameOf)).toBe(fresh(paperMove, '\n\n'));
    }
  });

  it("keys a line on every input of both renderers: they read nothing of a move but its type and argument", () => {
    // The cache compares the turn, the name as shown (a private move's tag in it) and these two fields
    // only. A renderer that read another field (the recipients, a field added later) could be given a
    // line made for a different value of it: this fails first.
    for (const move of [renderMove, paperMove]) {
      for (const type of ACTION_TYPES) {
        const read = new Set<PropertyKey>();
        const action = new Proxy({ type, argument: ' a "b"\n ', to: ['B'] } as Action, {
          get: (target, key, receiver) => {
            read.add(key);
            return Reflect.get(target, key, receiver);
          },
        });
        move(3, 'Ann', action);
        expect([...read].filter((k) => k !== 'type' && k !== 'argument'), `${move.name} ${type}`).toEqual([]);
      }
    }
  });
});
