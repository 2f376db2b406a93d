import { io } from 'socket.io-client';
import { SOCKET_IO_PATH } from '../../protocol/browser-transport.js';
import { WATCH_CLOSED_EVENT, WATCH_EVENT, WATCH_NAMESPACE, WATCH_OPEN_EVENT, WatchMessage, type WatchRow, type WatchSummary, type WatchTurn } from '../../protocol/watch.js';
import { el, fill } from '../shared/dom.js';
import { frameItem, parseLine, welcomeName } from './frames.js';

/**
 * The watch page of `parley run|serve --watch`: the run's episodes, live, and the opened episode's turns
 * with, side by side, each seat's ledger so far. Opens only with the key of its URL (`?key=K`), which
 * it hands to the `/watch` namespace; it sends nothing but which episode to follow. Everything shown
 * is text (scenario files, LLMs and remote agents wrote it).
 */

const $ = (id: string) => document.getElementById(id)!;
const key = new URLSearchParams(location.search).get('key') ?? '';
const rows = new Map<string, { row: WatchRow; tr: HTMLTableRowElement }>();
let opened: string | null = null;
let runEnded = false;
/** Seat names read from the welcome frames of the opened episode. */
const names = new Map<string, string>();

function showError(message: string): void {
  $('error').hidden = false;
  $('error').textContent = message;
}

/**
 * The run's end state: "Run finished" with its summary, and no error (the server closing after a run
 * is the normal end, not a failure).
 */
function finished(s: WatchSummary | undefined): void {
  setConn('Run finished');
  $('error').hidden = true;
  if (!s) return;
  const parts = [`${s.done} done`, `${s.failed} failed`, ...(s.unfinished ? [`${s.unfinished} not played`] : [])];
  const spent = s.costUsd === null ? `${s.tokens} tokens, partly unpriced` : `${s.tokens} tokens · $${s.costUsd.toFixed(4)}`;
  $('summary').textContent = `Run finished: ${parts.join(', ')} · ${spent}`;
  $('summary').hidden = false;
}

function setConn(text: string, live = false): void {
  $('conn').textContent = text;
  $('conn').classList.toggle('live', live);
}

const cost = (r: WatchRow): string => (r.costUsd === null ? `unpriced (${r.tokens} tokens)` : `$${r.costUsd.toFixed(4)}${r.tokens ? ` · ${r.tokens} tokens` : ''}`);

/** Adds or updates a row in place (the table keeps its order: the run's plan order). */
function upsert(row: WatchRow): void {
  let entry = rows.get(row.episodeId);
  if (!entry) {
    const tr = el('tr', {});
    entry = { row, tr };
    rows.set(row.episodeId, entry);
    $('rows').append(tr);
  }
  entry.row = row;
  const button = el('button', { type: 'button', class: 'open', 'aria-label': `Open ${row.scenario} (${row.mode})`, 'aria-pressed': String(opened === row.episodeId) }, row.scenario);
  // The server sends an episode once per open: clicking the open one again keeps what is shown.
  button.addEventListener('click', () => opened !== row.episodeId && open(row.episodeId));
  fill(entry.tr,
    el('td', {}, button),
    el('td', {}, row.mode),
    el('td', {}, el('span', { class: `state ${row.state}` }, row.state), ...(row.ending ? [el('span', { class: 'meta' }, ` ${row.ending.replace(/_/g, ' ')}`)] : [])),
    el('td', { class: 'num' }, `${row.turns} / ${row.maxTurns}`),
    el('td', { class: 'num' }, cost(row)));
  entry.tr.classList.toggle('selected', opened === row.episodeId);
  if (opened === row.episodeId) title(row);
  counts();
}

function counts(): void {
  const by = new Map<string, number>();
  for (const { row } of rows.values()) by.set(row.state, (by.get(row.state) ?? 0) + 1);
  $('counts').textContent = `(${[...by].map(([s, n]) => `${n} ${s}`).join(', ')})`;
}

function title(row: WatchRow): void {
  $('detail-title').textContent = `${row.scenario} · ${row.mode} · ${row.state}`;
}

/** Follows a list's end unless the reader scrolled up. */
function appendFollowing(list: HTMLElement, ...items: HTMLElement[]): void {
  const following = list.scrollHeight - list.scrollTop - list.clientHeight < 60;
  list.append(...items);
  if (following) list.scrollTop = list.scrollHeight;
}

const seatName = (seat: string) => (names.get(seat) ? `${names.get(seat)} (${seat})` : seat);

function turnItem(t: WatchTurn): HTMLLIElement {
  const what = t.action
    ? `${t.action.type}${t.action.argument ? `: ${t.action.argument}` : ''}`
    : `failed: ${t.error?.code ?? 'error'} ${t.error?.message ?? ''}`;
  const label = `Turn ${t.turn + 1} · ${seatName(t.seat)} · ${(t.atMs / 1000).toFixed(1)} s`;
  const button = el('button', { type: 'button', class: 'turn-select', 'aria-label': `${label}: show what each seat was told then` }, label);
  button.addEventListener('click', () => selectTurn(t.turn));
  return el('li', { ...(t.action ? {} : { class: 'error' }), 'data-turn': String(t.turn) }, button, el('span', {}, what));
}

/**
 * A turn picked in the turns list: every seat's ledger column scrolls to that turn's first frame, so
 * the columns show side by side what each seat was told at that moment.
 */
function selectTurn(turn: number): void {
  for (const li of $('turns').querySelectorAll('li')) li.classList.toggle('selected', li.getAttribute('data-turn') === String(turn));
  for (const list of $('ledgers').querySelectorAll<HTMLElement>('ol.frames')) {
    const items = [...list.querySelectorAll<HTMLElement>('li[data-turn]')];
    const at = items.find((li) => Number(li.getAttribute('data-turn')) >= turn);
    for (const li of items) li.classList.toggle('selected', li === at);
    if (at) list.scrollTop = at.offsetTop - list.offsetTop;
  }
}

/** A seat's ledger column (created on its first line). */
function ledgerList(seat: string): HTMLElement {
  const id = `ledger-${seat.replace(/[^\w-]/g, '_')}`;
  const existing = document.getElementById(id);
  if (existing) return existing;
  const list = el('ol', { id, class: 'frames', tabindex: '0', 'aria-label': `Frames sent to ${seat}` });
  const column = el('section', { class: 'ledger', 'aria-label': `Ledger of ${seat}`, 'data-seat': seat }, el('h3', { id: `${id}-title` }, `What ${seat} was told`), list);
  // Seats side by side in their id order (agent1, agent2, …), whichever spoke first.
  const after = [...$('ledgers').children].find((c) => (c.getAttribute('data-seat') ?? '') > seat);
  $('ledgers').insertBefore(column, after ?? null);
  return list;
}

function addLedgerLines(seat: string, lines: readonly string[]): void {
  const name = lines.map((l) => welcomeName(parseLine(l))).find(Boolean);
  if (name) names.set(seat, name);
  const list = ledgerList(seat);
  // The welcome names the seat's character: the column's heading says who it is.
  if (name) document.getElementById(`${list.id}-title`)!.textContent = `What ${seatName(seat)} was told`;
  appendFollowing(list, ...lines.map(frameItem));
}

function open(episodeId: string): void {
  opened = episodeId;
  names.clear();
  fill($('turns'));
  fill($('ledgers'));
  $('detail-note').textContent = 'Loading…';
  for (const [id, { row }] of rows) if (id === episodeId || rows.get(id)!.tr.classList.contains('selected')) upsert(row);
  socket.emit(WATCH_OPEN_EVENT, episodeId);
}

function handle(m: WatchMessage): void {
  switch (m.type) {
    case 'run':
      runEnded = m.ended;
      $('run').textContent = `run ${m.runId} · ${m.total} episode(s)${m.ended ? ' · finished' : ''}`;
      if (m.ended) finished(m.summary);
      return;
    case 'rows':
      for (const r of m.rows) upsert(r);
      return;
    case 'episode': {
      if (m.episodeId !== opened) return;
      $('detail-note').textContent = m.note ?? '';
      for (const [seat, lines] of Object.entries(m.ledgers)) addLedgerLines(seat, lines);
      appendFollowing($('turns'), ...m.turns.map(turnItem));
      return;
    }
    case 'turn':
      if (m.episodeId === opened) appendFollowing($('turns'), turnItem(m.turn));
      return;
    case 'ledger':
      if (m.episodeId === opened) addLedgerLines(m.seat, m.lines);
      return;
  }
}

const socket = io(WATCH_NAMESPACE, { path: SOCKET_IO_PATH, transports: ['websocket'], auth: { key }, query: { key }, reconnectionAttempts: 5 });
socket.on('connect', () => {
  if (!runEnded) setConn('Live', true);
  $('error').hidden = true;
  // A reconnect starts from a fresh snapshot: the server sends every row again.
  if (opened) open(opened);
});
socket.on(WATCH_EVENT, (raw: unknown) => {
  const parsed = WatchMessage.safeParse(raw);
  if (parsed.success) handle(parsed.data);
});
socket.on(WATCH_CLOSED_EVENT, (reason: unknown) => showError(`The server closed this view: ${typeof reason === 'string' ? reason : 'no reason given'}.`));
socket.on('connect_error', (err: Error) => {
  // After the run's end, a server that went away is the normal end: the page keeps its final state.
  if (runEnded) return setConn('Run finished');
  setConn('Not connected');
  if (err.message === 'forbidden') showError('The watch key was refused: open the watch url the run printed.');
  else if (!runEnded) showError('Cannot reach the run. It may have finished, or the server stopped.');
});
socket.on('disconnect', () => setConn(runEnded ? 'Run finished' : 'Disconnected'));
