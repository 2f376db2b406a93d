import { createInterface, type Interface } from 'node:readline';
import { ACTION_TYPES, ErrorCode, moveAction, RELATIONSHIP_NAMES, type Action, type ActionType, type ProfileView, type TaskPrivate, type TurnEvent } from '../../protocol/index.js';
import { outcomeText } from '../../seat-client/outcome.js';
import { seatCapabilities } from '../../simulation/index.js';
import { gameCardLines } from '../../simulation/games/card.js';
import type { MoveResult, Policy, SeatView } from '../policy.js';
import { originLine } from '../../text/terminal.js';

const SHORTCUTS: Record<string, ActionType> = {
  s: 'speak', speak: 'speak', n: 'none', none: 'none', v: 'non-verbal communication', nv: 'non-verbal communication',
  'non-verbal': 'non-verbal communication', 'non-verbal communication': 'non-verbal communication', a: 'action', action: 'action', l: 'leave', leave: 'leave',
};

/**
 * Asks a question on `output` and answers with the next line typed on `input`. Lines typed ahead of a prompt
 * are queued, not lost; an abort (the turn's deadline) ends the wait.
 */
function lineReader(input: NodeJS.ReadableStream, output: NodeJS.WritableStream) {
  let rl: Interface | null = null;
  const lines: string[] = [];
  let wake: (() => void) | null = null;
  const ask = async (prompt: string, signal: AbortSignal): Promise<string> => {
    output.write(prompt);
    if (!rl) {
      rl = createInterface({ input, terminal: false });
      rl.on('line', (line) => {
        lines.push(line);
        wake?.();
      });
    }
    while (lines.length === 0) {
      if (signal.aborted) throw new Error('aborted');
      await new Promise<void>((resolve) => {
        const onAbort = () => resolve();
        signal.addEventListener('abort', onAbort, { once: true });
        wake = () => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        };
      });
      wake = null;
    }
    return lines.shift()!;
  };
  return {
    ask,
    close() {
      rl?.close();
      rl = null;
    },
  };
}

/** What a seat is told once, before its first turn: the scene, who it is, its goal, its partners (and peers' minds). */
function introduce(view: SeatView, print: (origin: string, text: string) => void): void {
  const w = view.welcome;
  print('parley', `=== ${w.scenario.id} (${w.mode}) — you are ${w.self.profile.name ?? w.seat} [${w.seat}]`);
  for (const line of w.scenario.text.split('\n')) print('scene', line);
  for (const line of profileLines(w.self.profile)) print('you', line);
  print('you', `Your goal: ${w.self.goal}`);
  for (const h of w.self.hints) print('you', `${h.kind.replace(/_/g, ' ')}: ${h.text}`);
  if (w.self.task) for (const line of taskLines(w.self.task)) print('you', line);
  if (w.scenario.seats.length > 2) {
    // A group: who is here in turn order, and that a leave does not end it for the others.
    print('scene', `${w.scenario.seats.length} participants, in turn order: ${w.scenario.seats.join(', ')}. Someone who leaves takes no more turns; the conversation goes on until only one is left.`);
  }
  for (const p of w.partners) {
    // Origin `scene`: this is the orchestrator's description of the partner, not something they wrote.
    print('scene', `Your partner [${p.seat}] (${RELATIONSHIP_NAMES[p.relationship] ?? p.relationship}):`);
    for (const line of profileLines(p.profile)) print('scene', `  ${line}`);
    if (p.sharedHistory) print('scene', `  Shared history: ${p.sharedHistory}`);
  }
  for (const peer of view.peers) {
    print(peer.seat, `MINDREADERS MODE: ${peer.seat}'s private state:`);
    for (const line of profileLines(peer.profile)) print(peer.seat, line);
    print(peer.seat, `Their goal: ${peer.goal}`);
    if (peer.task) for (const line of taskLines(peer.task)) print(peer.seat, line);
  }
  // Without task moves (`paper`, as in the paper) choices are said in the conversation.
  if (seatCapabilities(w.protocol).taskMoves) {
    if (w.self.task?.kind === 'mutual_friends') print('parley', 'To choose the shared friend: action type `action`, text `select <name>` (or type `select <name>` at the action prompt).');
    if (w.self.task?.kind === 'craigslist') print('parley', 'Task moves at the action prompt: `offer <price>`, `accept`, `reject`, `quit`.');
    if (w.self.task?.kind === 'auction') print('parley', 'Task moves at the action prompt: `offer <price>` (a bid), `accept` (the seller sells to the highest bid), `quit` (the seller stops).');
    if (w.self.task?.kind === 'split') print('parley', 'Task moves at the action prompt: `propose 40/30/30` (shares in seat order), `accept`, `reject` (votes on the latest proposal).');
  }
}

/**
 * A person at the terminal plays the seat: it shows the scenario, the seat's own goal and the conversation
 * so far, then asks for an action type and its text. Kept simple on purpose (the browser client is richer).
 * Every line printed starts with its origin (`parley`, `scene`, `you`, a partner's seat id) and all text
 * from the orchestrator or a partner is passed through `terminalSafe`: no escape sequence, control
 * character or line break of theirs reaches the terminal.
 */
export function createHumanPolicy(io: { input?: NodeJS.ReadableStream; output?: NodeJS.WritableStream } = {}): Policy {
  const input = io.input ?? process.stdin;
  const output = io.output ?? process.stdout;
  const reader = lineReader(input, output);
  let shownEvents = 0;
  let introduced = false;
  /** Prints one line marked with its origin; text from elsewhere is neutralised by `originLine`. */
  const print = (origin: string, text: string) => output.write(`${originLine(origin, text)}\n`);

  const show = (view: SeatView) => {
    if (!introduced) {
      introduced = true;
      output.write('\n');
      introduce(view, print);
    }
    for (const e of view.events.slice(shownEvents)) print(e.seat === view.welcome.seat ? 'you' : e.seat, formatEvent(e, view.welcome.seat));
    shownEvents = view.events.length;
  };

  return {
    spec: 'human',
    async act(view, request, signal): Promise<MoveResult> {
      const started = performance.now();
      const meta = () => ({ policy: 'human', latencyMs: performance.now() - started });
      show(view);
      try {
        const allowed = request.actions;
        let type: ActionType | undefined;
        while (!type) {
          const typed = (await reader.ask(`${originLine('parley', '')}Your turn ${request.turn} (${Math.round(request.deadlineMs / 1000)} s). Action [${allowed.join(' / ')}] (Enter = speak): `, signal)).trim();
          const move = seatCapabilities(view.welcome.protocol).taskMoves ? taskMove(typed) : null;
          if (move && allowed.includes('action')) return { ok: true, action: move, meta: meta() };
          const answer = typed.toLowerCase();
          const chosen = answer === '' ? 'speak' : SHORTCUTS[answer] ?? (ACTION_TYPES as readonly string[]).find((t) => t === answer);
          if (chosen && allowed.includes(chosen as ActionType)) type = chosen as ActionType;
          else print('parley', `Please type one of: ${allowed.join(', ')}`);
        }
        const argument = type === 'none' || type === 'leave' ? '' : (await reader.ask('> ', signal)).trim();
        return { ok: true, action: { type, argument }, meta: meta() };
      } catch (err) {
        if (signal.aborted) return { ok: false, error: { code: ErrorCode.DeadlineMissed, message: 'no answer before the turn deadline' }, meta: meta() };
        return { ok: false, error: { code: ErrorCode.PolicyFailed, message: `terminal input failed: ${(err as Error).message}` }, meta: meta() };
      }
    },
    ended(view, reason) {
      if (view) show(view);
      print('parley', `=== episode over: ${reason.replace(/_/g, ' ')}`);
      if (view) {
        const w = view.welcome;
        const name = (seat: string) => w.partners.find((p) => p.seat === seat)?.profile.name ?? seat;
        const outcome = outcomeText(w.scenario.kind, view.events, w.seat, name, w.scenario.seats);
        if (outcome) print('parley', `Outcome: ${outcome}`);
      }
    },
    async close() {
      reader.close();
    },
  };
}

function formatEvent(e: TurnEvent, self: string): string {
  // A private move this seat received (as speaker or recipient) says so, with its recipients.
  const who = `${e.seat === self ? 'you' : e.seat}${e.action.to ? ` [private to ${e.action.to.map((s) => (s === self ? 'you' : s)).join(', ')}]` : ''}`;
  switch (e.action.type) {
    case 'speak':
      return `[${e.turn}] ${who}: "${e.action.argument}"`;
    case 'none':
      return `[${e.turn}] ${who} did nothing`;
    case 'leave':
      return `[${e.turn}] ${who} left`;
    default:
      return `[${e.turn}] ${who} (${e.action.type}): ${e.action.argument}`;
  }
}

/** `select <name>`, `offer <price>`, `accept`, `reject`, `quit` typed at the action prompt: a task move. */
function taskMove(typed: string): Action | null {
  const select = /^select\s+(.+)$/i.exec(typed);
  if (select) return moveAction({ move: 'select', name: select[1]!.trim() });
  const offer = /^offer\s+\$?([0-9][0-9,]*(?:\.[0-9]+)?)$/i.exec(typed);
  if (offer) return moveAction({ move: 'offer', price: Number(offer[1]!.replace(/,/g, '')) });
  const bare = /^(accept|reject|quit)$/i.exec(typed);
  return bare ? moveAction({ move: bare[1]!.toLowerCase() as 'accept' | 'reject' | 'quit' }) : null;
}

/** A profile as `field: value` lines (whatever fields the view carries); the secret marked private. */
function profileLines(p: ProfileView): string[] {
  return Object.entries(p)
    .filter(([, v]) => v !== undefined && v !== '' && !(Array.isArray(v) && !v.length))
    .map(([k, v]) => `${k === 'secret' ? 'SECRET (private)' : k}: ${Array.isArray(v) ? v.join(', ') : String(v)}`);
}

/** Task data: the friend table (MutualFriends) or the item, listing price and own target (Craigslist). */
function taskLines(t: TaskPrivate): string[] {
  if (t.kind === 'mutual_friends') return [`Friends (${t.attributes.join(' | ')}):`, ...t.friends.map((f) => `  ${t.attributes.map((a) => f[a] ?? '').join(' | ')}`)];
  if (t.kind === 'auction') {
    return [`Item: ${t.item.title}`, `Description: ${t.item.description}`, `You are ${t.role === 'seller' ? 'the seller; your reserve price' : 'a buyer; your valuation'} (private): $${t.valuation}`];
  }
  if (t.kind === 'split') return [`Resource: ${t.total} ${t.resource}`, `You hope for ${t.want}; the least you would vote for (private): ${t.minimum}`];
  if (t.kind === 'game') return gameCardLines(t);
  return [
    `Item: ${t.item.title} (${t.item.category}), listing price $${t.item.listingPrice}`,
    `Description: ${t.item.description}`,
    `You are the ${t.role}; your target price (private): $${t.target}`,
  ];
}
