import { io, type Socket } from 'socket.io-client';
// Specific protocol files, not the index: the page must not pull in the Node-only decoder.
import { PRIVATE_ACTION_TYPES, type Action } from '../../protocol/action.js';
import { CLOSE_EVENT, FRAME_EVENT, SOCKET_IO_PATH, type BrowserClose } from '../../protocol/browser-transport.js';
import { OrchestratorFrame, type SeatWelcome, type TurnEvent, type TurnRequest } from '../../protocol/frames.js';
import { SeatClientState } from '../../seat-client/state.js';
import { moveAction, type TaskMove } from '../../protocol/moves.js';
import { PROTOCOL_VERSION } from '../../protocol/version.js';
import { seatCapabilities } from '../../simulation/seat-capabilities.js';
import { goalCard, mindreaderPanel, partnerCard, selfCard } from './cards.js';
import { bdi, el, fill, section } from './dom.js';
import { messageItem, outcomeNodes } from './messages.js';
import { Countdown } from './countdown.js';
import { ThinkingLine } from './thinking.js';
import { outcomeParts } from '../../seat-client/outcome.js';

/**
 * The browser seat client: joins the seat named by `?token=` over socket.io, shows exactly what the
 * seat's frames carry, laid out for a person, and sends the person's moves as `turn.act`. Imports only
 * protocol/ (schemas and constants), never the orchestrator. Reloading the page rejoins with the resume
 * secret kept in sessionStorage (the join token is spent after the first join).
 *
 * Layout (index.html, seat.css): the conversation first, as chat messages that scroll on their own; the
 * message box and move controls docked below it, always in view; the seat's card in a side panel (a
 * toggled sheet on narrow screens). The top bar says whose turn it is; the dock counts the time left.
 */

const CLIENT = { name: 'parley-web', version: '1', policy: 'human' } as const;
const $ = (id: string) => document.getElementById(id)!;
// A study's seat page (`/seat#token=T`) carries the token in the fragment, never sent to the server in a URL.
const token = /^#token=([A-Za-z0-9_-]{1,64})$/.exec(location.hash)?.[1] ?? new URLSearchParams(location.search).get('token') ?? '';
/** Opened by a study (`parley study`): the end screen leads on to the study's exit survey at `/`. */
const inStudy = location.pathname === '/seat';
const resumeKey = `parley:resume:${token}`;
/** Every raw frame this page received, in order (tests compare it with the seat's ledger). */
const received: string[] = [];
(window as unknown as { parleyReceived: string[] }).parleyReceived = received;

/**
 * The seat as the page knows it — welcome, open turn, time left, how it ended — in the one seat-client
 * state machine the agent process uses too (seat-client/state.ts). socket.io reconnects the
 * transport by itself; the machine decides what a close by the orchestrator means.
 */
const state = new SeatClientState({
  now: () => Date.now(),
  attempts: 5,
  initialAttempts: 0,
  backoffMs: (failures) => Math.min(10_000, 1000 * 2 ** failures),
  target: location.host,
  ...(sessionStorage.getItem(resumeKey) ? { resume: sessionStorage.getItem(resumeKey)! } : {}),
});
const events: TurnEvent[] = [];
const countdown = new Countdown($('countdown'), () => state.timeLeftMs());
const thinking = new ThinkingLine($('thinking'));
let n = 0;

const nameOf = (seat: string): string => {
  const welcome = state.welcome;
  if (!welcome) return seat;
  if (seat === welcome.seat) return welcome.self.profile.name ?? 'You';
  return welcome.partners.find((p) => p.seat === seat)?.profile.name ?? `the other participant (${seat})`;
};

/** The top bar's one line: whose turn it is (`mine` highlights the seat's own). */
function setStatus(text: string | Array<Node | string>, mine = false): void {
  const status = $('status');
  status.replaceChildren(...(typeof text === 'string' ? [text] : text));
  status.classList.toggle('mine', mine);
}

function showError(message: string): void {
  const box = $('error');
  box.hidden = false;
  fill(box, message);
}

if (!token) showError('This page needs a seat link with a token (…/?token=…). Ask the organiser for yours.');
else connect();

/** Sends one frame to the orchestrator (the page numbers the frame ids). */
type Send = (body: Record<string, unknown>) => void;

function connect(): void {
  const socket = io({ path: SOCKET_IO_PATH, transports: ['websocket'], reconnectionAttempts: 5, query: { token } });
  const send: Send = (body) => socket.emit(FRAME_EVENT, JSON.stringify({ v: PROTOCOL_VERSION, id: `w${(n++).toString(36)}`, ...body }));

  let conn = 0;
  socket.on('connect', () => {
    conn = state.connecting();
    state.opened();
    const resume = state.resume;
    send({ type: 'seat.join', token, ...(resume ? { resume } : {}), client: CLIENT });
  });
  socket.on(FRAME_EVENT, (raw: string) => onFrame(raw, conn, send));
  socket.on(CLOSE_EVENT, (c: BrowserClose) => onClose(socket, c));
  socket.on('connect_error', () => showError('Cannot reach the server. Is the episode still running?'));
  wireControls((action) => act(action, send));
}

/** One frame from the orchestrator, on connection `conn`: kept, fed to the state machine, shown. */
function onFrame(raw: string, conn: number, send: Send): void {
  received.push(raw);
  const parsed = OrchestratorFrame.safeParse(JSON.parse(raw));
  if (!parsed.success) return showError('The server sent a frame this page does not understand.');
  const f = parsed.data;
  state.frame(f, conn);
  switch (f.type) {
    case 'seat.welcome':
      events.length = 0;
      if (f.resume) sessionStorage.setItem(resumeKey, f.resume);
      renderWelcome(f, (a) => act(a, send));
      updateWaiting();
      return;
    case 'peer.state':
      $('mind').append(mindreaderPanel(f.state, nameOf(f.state.seat)));
      return;
    case 'turn.request':
      openComposer(f);
      return;
    case 'turn.event':
      events.push(f);
      appendChat(f);
      if (!state.pending) closeComposer();
      updateWaiting();
      return;
    case 'game.notice':
      appendNotice(f.to ? `Moderator, to you only: ${f.text}` : `Moderator: ${f.text}`);
      return;
    case 'ping':
      send({ type: 'pong', nonce: f.nonce });
      return;
    case 'episode.end':
      sessionStorage.removeItem(resumeKey);
      renderEnd(f.reason);
      return;
    case 'error':
      if (!state.welcome) showError(`Could not take this seat: ${f.message} (${f.code}). The link may be wrong or already used.`);
      else showError(`${f.message} (${f.code})`);
      return;
    default:
      return;
  }
}

/** A close by the orchestrator: the state machine says whether to reconnect, or what to tell the person. */
function onClose(socket: Socket, c: BrowserClose): void {
  socket.disconnect();
  const decision = state.closed(c.code, c.reason);
  if (decision.kind === 'reconnect') {
    setStatus(`Connection closed (${c.reason || c.code}); reconnecting…`);
    setTimeout(() => socket.connect(), decision.delayMs);
    return;
  }
  const outcome = decision.outcome;
  if (outcome.status === 'ended') return;
  if (outcome.status === 'refused' || !state.welcome) {
    sessionStorage.removeItem(resumeKey);
    return showError(`This seat link cannot be used: ${c.reason}. It may be wrong, or the seat was already taken and its episode is over.`);
  }
  showError(`The server closed the connection: ${c.reason} (${c.code}).`);
}

/** Sends the person's move for the pending turn. */
function act(action: Action, send: Send): void {
  const pending = state.pending;
  if (!pending) return;
  send({ type: 'turn.act', turn: pending.turn, action, meta: { policy: 'human', latencyMs: Math.max(0, Math.round(pending.deadlineMs - (state.timeLeftMs() ?? 0))) } });
  state.acted();
  closeComposer();
  setStatus('Sent.');
  updateWaiting();
}

/** The message box, the panel toggle and the task-move buttons, each sending through `act`. */
function wireControls(act: (a: Action) => void): void {
  $('composer').addEventListener('submit', (e) => {
    e.preventDefault();
    const type = ($('action') as HTMLSelectElement).value as Action['type'];
    const message = $('message') as HTMLTextAreaElement;
    const bare = type === 'none' || type === 'leave';
    // An empty bubble is almost always an Enter pressed too soon: say so instead of spending the turn.
    if (!bare && !message.value.trim()) {
      $('hint').textContent = 'Write something first (or choose the action none).';
      return;
    }
    const to = privateTo(type);
    act(to ? { type, argument: message.value, to } : { type, argument: bare ? '' : message.value });
    message.value = '';
    for (const box of recipientBoxes()) box.checked = false;
  });
  // Enter sends; Shift+Enter (or an input method composing a character) adds a line as usual.
  $('message').addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      ($('composer') as HTMLFormElement).requestSubmit();
    }
  });
  $('message').addEventListener('input', () => void ($('hint').textContent = ''));
  $('panel-toggle').addEventListener('click', () => togglePanel());
  const move = (m: TaskMove) => act(moveAction(m));
  $('offer').addEventListener('click', () => {
    const price = Number(($('price') as HTMLInputElement).value);
    if (Number.isFinite(price) && price > 0) move({ move: 'offer', price });
  });
  $('accept').addEventListener('click', () => move({ move: 'accept' }));
  $('reject').addEventListener('click', () => move({ move: 'reject' }));
  $('quit').addEventListener('click', () => move({ move: 'quit' }));
}

/** The seat page's recipient checkboxes (a group only: one per other participant). */
const recipientBoxes = () => [...document.querySelectorAll<HTMLInputElement>('#recipient-list input[type=checkbox]')];

/**
 * The ticked recipients of a private message (SOTOPIA's `to`), or undefined for a public one: nothing
 * ticked, or a move that cannot be private (a task move, none, leave), which goes to everyone.
 */
function privateTo(type: Action['type']): string[] | undefined {
  const to = recipientBoxes().filter((b) => b.checked).map((b) => b.value);
  return to.length > 0 && PRIVATE_ACTION_TYPES.has(type) ? to : undefined;
}

/** A group's `Send to` picker: a checkbox per other participant, its label the name (each in its own isolate). */
function renderRecipients(w: SeatWelcome): void {
  const group = w.scenario.seats.length > 2;
  $('recipients').hidden = !group;
  fill($('recipient-list'), ...(group ? w.partners.map((p) => el('label', { class: 'recipient' }, el('input', { type: 'checkbox', name: 'to', value: p.seat, disabled: '' }), ' ', bdi(nameOf(p.seat)))) : []));
}

function renderWelcome(w: SeatWelcome, act: (a: Action) => void): void {
  const select = (name: string) => {
    const b = el('button', { type: 'button', class: 'move', 'aria-label': `Select ${name}` }, 'Select');
    b.disabled = true;
    b.addEventListener('click', () => act(moveAction({ move: 'select', name })));
    return b;
  };
  // Without task moves (`paper`, as in the paper) choices are said in the conversation.
  const taskMoves = seatCapabilities(w.protocol).taskMoves;
  fill($('scenario'), section('Scenario', el('p', {}, w.scenario.text), el('p', { class: 'meta' }, `Mode: ${w.mode}. Turn limit: ${w.limits.maxTurns}.`)));
  fill($('goal'), goalCard(w.self));
  fill($('self'), ...selfCard(w.self, taskMoves && w.self.task?.kind === 'mutual_friends' ? select : null));
  fill($('partners'), ...w.partners.map((p) => partnerCard(p, nameOf(p.seat))));
  renderRecipients(w);
  fill($('mind'));
  fill($('chat'), el('li', { class: 'empty' }, 'The conversation will appear here.'));
  // Offer/accept/reject/quit are the moves of a Craigslist deal, an auction and a split's vote.
  $('bargain').hidden = !taskMoves || !['craigslist', 'auction', 'split'].includes(w.self.task?.kind ?? '');
  $('game').hidden = false;
}

function appendChat(e: TurnEvent): void {
  const chat = $('chat');
  // Follow the conversation unless the person scrolled up to reread (then leave their place alone).
  const welcome = state.welcome;
  const following = chat.scrollHeight - chat.scrollTop - chat.clientHeight < 80 || e.seat === welcome?.seat;
  chat.querySelector('.empty')?.remove();
  chat.append(messageItem(e, nameOf(e.seat), e.seat === welcome?.seat, e.action.to?.map(nameOf)));
  if (following) chat.scrollTop = chat.scrollHeight;
}

/** Narrow screens: shows or hides the character panel (it replaces the conversation while open). */
function togglePanel(open = !$('game').classList.contains('panel-open')): void {
  $('game').classList.toggle('panel-open', open);
  $('panel-toggle').setAttribute('aria-expanded', String(open));
  $('panel-toggle').textContent = open ? 'Back to the conversation' : 'Character and goal';
}

/** A game moderator's notice, as a line of its own in the conversation (text only, never HTML). */
function appendNotice(text: string): void {
  const chat = $('chat');
  chat.querySelector('.empty')?.remove();
  chat.append(el('li', { class: 'notice' }, bdi(text)));
  chat.scrollTop = chat.scrollHeight;
}

/** A game's request in words: the phase, and the move with the players it may name, or who will hear. */
function gameHint(r: TurnRequest): string {
  const g = r.game;
  if (!g) return '';
  if (g.move) return `${g.title}: choose Action and write "${g.move.verb} <player>" (one of ${g.move.targets.join(', ')}).`;
  return g.to ? `${g.title}: only ${g.to.join(', ')} will hear you.` : `${g.title}: everyone will hear you.`;
}

function openComposer(r: TurnRequest): void {
  const action = $('action') as HTMLSelectElement;
  fill(action, ...r.actions.map((a) => el('option', { value: a }, a)));
  if (r.actions.includes('speak')) action.value = 'speak';
  for (const c of document.querySelectorAll<HTMLButtonElement | HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>('#composer *, .move, #bargain *')) c.disabled = false;
  setStatus('Your turn.', true);
  thinking.hide();
  $('hint').textContent = gameHint(r);
  if (r.game?.move) action.value = 'action';
  countdown.show();
  // The box takes the keyboard on the seat's turn (unless the person is typing elsewhere, e.g. a price).
  const active = document.activeElement;
  if (!active || active === document.body || active.closest('#composer') || !active.matches('input, textarea, select')) ($('message') as HTMLTextAreaElement).focus();
}

function closeComposer(): void {
  for (const c of document.querySelectorAll<HTMLButtonElement | HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>('#composer *, .move, #bargain *')) c.disabled = true;
  countdown.clear();
}

function updateWaiting(): void {
  const welcome = state.welcome;
  if (!welcome || state.pending || state.endReason !== null) return;
  const order = welcome.scenario.seats;
  const last = events.at(-1);
  // Round robin past seats that left (a group goes on after a leave).
  const left = new Set(events.filter((e) => e.action.type === 'leave').map((e) => e.seat));
  const from = last ? order.indexOf(last.seat) : -1;
  const next = order.map((_, i) => order[(from + 1 + i) % order.length]!).find((s) => !left.has(s)) ?? order[0]!;
  if (next === welcome.seat) {
    setStatus('Your turn is coming.');
    thinking.hide();
    return;
  }
  setStatus(['Waiting for ', bdi(nameOf(next)), '.']);
  thinking.show(nameOf(next));
}

function renderEnd(reason: string): void {
  closeComposer();
  setStatus('The conversation is over.');
  const welcome = state.welcome;
  const kind = welcome?.scenario.kind ?? 'open';
  // Each name in the outcome in its own isolate: a name with a right-to-left override cannot reverse the rest.
  const outcome = outcomeNodes(welcome ? outcomeParts(kind, events, welcome.seat, nameOf, welcome.scenario.seats) : []);
  const end = $('end');
  fill(end,
    el('h2', {}, 'Episode over'),
    ...(outcome.length ? [el('p', { class: 'outcome' }, 'Outcome: ', ...outcome)] : []),
    el('p', {}, `Why it ended: ${reason.replace(/_/g, ' ')}`),
    inStudy
      ? el('p', {}, el('a', { href: '/', class: 'button primary' }, 'Continue to the survey'))
      : el('p', { class: 'meta' }, `${events.length} turn(s) played. Thank you for taking part; you may close this page.`));
  end.hidden = false;
  thinking.hide();
  $('dock').hidden = true;
  togglePanel(false);
  end.setAttribute('tabindex', '-1');
  end.focus();
}
