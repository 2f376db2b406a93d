import type { TaskPrivate } from '../../protocol/task.js';
import type { PartnerView, PeerPrivateState, SelfView } from '../../protocol/views.js';
import { bdi, el, privateBadge, privateSection, section } from './dom.js';

const RELATIONSHIPS = ['stranger', 'know by name', 'acquaintance', 'friend', 'romantic partner', 'family'];

/** Profile fields as label/value rows, whatever fields the seat's view carries; the secret is marked private. */
function profileList(profile: Record<string, unknown>): HTMLElement {
  const dl = el('dl', { class: 'fields' });
  for (const [k, v] of Object.entries(profile)) {
    if (v === undefined || v === '' || (Array.isArray(v) && !v.length)) continue;
    const label = k === 'secret' ? 'Secret (private: only you know this)' : k.replace(/([A-Z])/g, ' $1').toLowerCase();
    dl.append(el('dt', {}, label), el('dd', k === 'secret' ? { class: 'secret private-item' } : {}, Array.isArray(v) ? v.join(', ') : String(v)));
  }
  return dl;
}

/** The seat's goal: first in the panel, what a person looks up most. */
export const goalCard = (self: SelfView): HTMLElement => privateSection('Your goal', el('p', { class: 'goal' }, self.goal));

/** The seat's own card, hints and task data; what only this seat knows carries a Private badge. */
export function selfCard(self: SelfView, onSelect: ((name: string) => HTMLButtonElement) | null): HTMLElement[] {
  const out = [section('Your character', profileList(self.profile))];
  if (self.hints.length) out.push(privateSection('Hints', el('ul', {}, ...self.hints.map((h) => el('li', {}, `${h.kind.replace(/_/g, ' ')}: `, bdi(h.text))))));
  if (self.task) out.push(taskPanel(self.task, 'Your task data', onSelect, true));
  return out;
}

/** MutualFriends friend table (with a `Select <name>` button per row when moves are on), or the Craigslist item. */
export function taskPanel(task: TaskPrivate, title: string, onSelect: ((name: string) => HTMLButtonElement) | null, own = false): HTMLElement {
  const wrap = own ? privateSection : section;
  if (task.kind === 'mutual_friends') {
    const head = el('tr', {}, ...task.attributes.map((a) => el('th', { scope: 'col' }, a)), ...(onSelect ? [el('th', { scope: 'col' }, 'Choose')] : []));
    const rows = task.friends.map((f) => {
      const name = f.Name ?? f.name ?? Object.values(f)[0] ?? '';
      return el('tr', {}, ...task.attributes.map((a) => el('td', {}, f[a] ?? '')), ...(onSelect ? [el('td', {}, onSelect(name))] : []));
    });
    // A table wider than a phone scrolls sideways inside its own box (focusable, so keyboards can scroll it).
    return wrap(title, el('div', { class: 'table-scroll', tabindex: '0', role: 'group', 'aria-label': 'Friends table' }, el('table', { 'aria-label': 'Friends' }, el('thead', {}, head), el('tbody', {}, ...rows))));
  }
  if (task.kind === 'auction') {
    return section(title, el('dl', {},
      el('dt', {}, 'Item'), el('dd', {}, task.item.title),
      el('dt', {}, 'Description'), el('dd', {}, task.item.description),
      el('dt', {}, 'Role'), el('dd', {}, task.role),
      el('dt', {}, task.role === 'seller' ? 'Reserve price (private)' : 'Valuation (private)'), el('dd', {}, `$${task.valuation}`),
    ));
  }
  if (task.kind === 'split') {
    return section(title, el('dl', {},
      el('dt', {}, 'To split'), el('dd', {}, `${task.total} `, bdi(task.resource)),
      el('dt', {}, 'Hoped-for share (private)'), el('dd', {}, String(task.want)),
      el('dt', {}, 'Least share worth voting for (private)'), el('dd', {}, String(task.minimum)),
      el('dt', {}, 'Moves'), el('dd', {}, 'Action "propose 40/30/30" (shares in seat order), then "accept" or "reject" to vote.'),
    ));
  }
  if (task.kind === 'game') {
    return section(title, el('dl', {},
      el('dt', {}, 'Role (private)'), el('dd', { class: 'private-item' }, bdi(task.roleName)),
      el('dt', {}, 'Side'), el('dd', {}, bdi(task.teamName)),
      ...(task.teammates.length ? [el('dt', {}, 'Teammates'), el('dd', {}, bdi(task.teammates.join(', ')))] : []),
      ...(task.word !== undefined ? [el('dt', {}, 'Secret word (private)'), el('dd', { class: 'private-item' }, bdi(task.word))] : []),
      el('dt', {}, 'Moves'), el('dd', {}, 'When the moderator asks for a move, choose Action and write it as asked, for example "vote agent3".'),
    ));
  }
  const item = task.item;
  return wrap(title, el('dl', { class: 'fields' },
    el('dt', {}, 'Item'), el('dd', {}, item.title),
    el('dt', {}, 'Category'), el('dd', {}, item.category),
    el('dt', {}, 'Listing price'), el('dd', {}, `$${item.listingPrice}`),
    el('dt', {}, 'Description'), el('dd', {}, item.description),
    el('dt', {}, `Your role`), el('dd', {}, task.role),
    el('dt', {}, 'Your target price (private)'), el('dd', { class: 'private-item' }, `$${task.target}`),
  ));
}

/** A partner as the relationship shows them. */
export function partnerCard(p: PartnerView, name: string): HTMLElement {
  return section(['Your partner: ', bdi(name)],
    el('p', { class: 'meta' }, 'Relationship: ', bdi(RELATIONSHIPS[p.relationship] ?? String(p.relationship))),
    profileList(p.profile),
    ...(p.sharedHistory ? [el('p', {}, 'Shared history: ', bdi(p.sharedHistory))] : []));
}

/** Mindreaders mode: the partner's private state, clearly labelled as such. */
export function mindreaderPanel(s: PeerPrivateState, name: string): HTMLElement {
  const panel = section(['Mindreaders mode: ', bdi(name), "'s private state"],
    el('p', {}, 'In this mode you can see what your partner privately knows and wants. ', privateBadge()),
    profileList(s.profile),
    el('p', {}, 'Their goal: ', bdi(s.goal)),
    ...s.hints.map((h) => el('p', {}, `${h.kind.replace(/_/g, ' ')}: `, bdi(h.text))),
    ...(s.task ? [taskPanel(s.task, `${name}'s task data`, null)] : []));
  panel.classList.add('mindreader');
  return panel;
}
