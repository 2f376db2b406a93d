import type { TurnEvent } from '../../protocol/frames.js';
import { parseMove, type TaskMove } from '../../protocol/moves.js';
import { el } from './dom.js';

/** A task move in words ("selected Ann", "offered $120"). */
function moveText(m: TaskMove): string {
  switch (m.move) {
    case 'select': return `selected ${m.name}`;
    case 'offer': return `offered $${m.price}`;
    case 'accept': return 'accepted the offer';
    case 'reject': return 'rejected the offer';
    case 'quit': return 'walked away';
    case 'propose': return `proposed the split ${m.shares.join('/')}`;
  }
}

/**
 * One turn of the conversation as a chat item: speech as a bubble under the speaker's name (the seat's
 * own on the right); non-verbal acts, physical actions, task moves, silences and leaving as narration
 * apart from speech, labelled with their kind in words. Text only: the argument is untrusted.
 */
export function messageItem(e: TurnEvent, name: string, own: boolean): HTMLLIElement {
  const who = el('p', { class: 'who' }, `${own ? `${name} (you)` : name} · turn ${e.turn + 1}`);
  const item = (classes: string, ...body: Array<Node | string>) =>
    el('li', { class: `msg ${classes}${own ? ' own' : ''}` }, who, el('p', { class: 'bubble' }, ...body));
  const kind = (label: string) => el('span', { class: 'kind' }, label);
  const a = e.action;
  switch (a.type) {
    case 'speak':
      return item('speech', a.argument);
    case 'non-verbal communication':
      return item('act', kind('Non-verbal'), `${name} ${a.argument}`);
    case 'action': {
      const m = parseMove(a);
      return m ? item('act move', kind('Move'), `${name} ${moveText(m)}`) : item('act', kind('Action'), `${name} ${a.argument}`);
    }
    case 'leave':
      return item('act quiet', `${name} left the conversation`);
    default:
      return item('act quiet', `${name} did nothing`);
  }
}
