import { describe, expect, it } from 'vitest';
import type { Action, TurnEvent } from '../../../protocol/index.js';
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
      const fresh = (move: typeof renderMove) => events.map((e) => move(e.turn, nameOf(e.seat) + (e.action.to ? ` [private to ${e.action.to.map(nameOf).join(', ')}]` : ''), e.action)).join('\n');
      expect(renderHistory([...events].reverse(), nameOf)).toBe(fresh(renderMove));
      expect(paperHistory([...events].reverse(), nameOf)).toBe(fresh(paperMove));
    }
  });
});
