import type { TurnEvent } from '../../protocol/frames.js';
import type { TextPart } from '../../seat-client/outcome.js';
import { parseMove, type TaskMove } from '../../protocol/moves.js';
import { bdi, el } from './dom.js';

/** A task move in words ("selected Ann", "offered $120"); the name chosen in its own isolate. */
function moveText(m: TaskMove): Array<Node | string> {
  switch (m.move) {
    case 'select': return ['selected ', bdi(m.name)];
    case 'offer': return [`offered $${m.price}`];
    case 'accept': return ['accepted the offer'];
    case 'reject': return ['rejected the offer'];
    case 'quit': return ['walked away'];
    case 'propose': return [`proposed the split ${m.shares.join('/')}`];
  }
}

/** The end screen's outcome sentence as nodes: Parley's words as text, every name in its own `<bdi>`. */
export function outcomeNodes(parts: readonly TextPart[]): Array<Node | string> {
  return parts.map((p) => (typeof p === 'string' ? p : bdi(p.untrusted)));
}

/**
 * One turn of the conversation as a chat item: speech as a bubble under the speaker's name (the seat's
 * own on the right); non-verbal acts, physical actions, task moves, silences and leaving as narration
 * apart from speech, labelled with their kind in words. Text only: the argument is untrusted, and so is
 * the name: each sits in its own `<bdi>`, so neither can reorder the sentence Parley composes around it.
 * A private message (`to`: the recipients' names) says so after the speaker: `· private to Bea, Cal`.
 */
export function messageItem(e: TurnEvent, name: string, own: boolean, to?: readonly string[]): HTMLLIElement {
  const privately = to ? [' · ', el('span', { class: 'private-to' }, 'private to ', ...to.flatMap((n, i) => (i ? [', ', bdi(n)] : [bdi(n)])))] : [];
  const who = el('p', { class: 'who' }, bdi(name), `${own ? ' (you)' : ''} · turn ${e.turn + 1}`, ...privately);
  const item = (classes: string, ...body: Array<Node | string>) =>
    el('li', { class: `msg ${classes}${own ? ' own' : ''}${to ? ' whisper' : ''}` }, who, el('p', { class: 'bubble' }, ...body));
  const kind = (label: string) => el('span', { class: 'kind' }, label);
  const a = e.action;
  switch (a.type) {
    case 'speak':
      return item('speech', bdi(a.argument));
    case 'non-verbal communication':
      return item('act', kind('Non-verbal'), bdi(name), ' ', bdi(a.argument));
    case 'action': {
      const m = parseMove(a);
      return m ? item('act move', kind('Move'), bdi(name), ' ', ...moveText(m)) : item('act', kind('Action'), bdi(name), ' ', bdi(a.argument));
    }
    case 'leave':
      return item('act quiet', bdi(name), ' left the conversation');
    default:
      return item('act quiet', bdi(name), ' did nothing');
  }
}
