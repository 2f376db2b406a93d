import { createInterface, type Interface } from 'node:readline';
import { ACTION_TYPES, ErrorCode, type ActionType, type TurnEvent } from '../../protocol/index.js';
import type { MoveResult, Policy, SeatView } from '../policy.js';
import { originLine } from '../terminal-text.js';

const SHORTCUTS: Record<string, ActionType> = {
  s: 'speak', speak: 'speak', n: 'none', none: 'none', v: 'non-verbal communication', nv: 'non-verbal communication',
  'non-verbal': 'non-verbal communication', 'non-verbal communication': 'non-verbal communication', a: 'action', action: 'action', l: 'leave', leave: 'leave',
};

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
  let rl: Interface | null = null;
  // Lines typed ahead of a prompt are queued, not lost.
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
  let shownEvents = 0;
  let introduced = false;
  /** Prints one line marked with its origin; text from elsewhere is neutralised by `originLine`. */
  const print = (origin: string, text: string) => output.write(`${originLine(origin, text)}\n`);

  const show = (view: SeatView) => {
    if (!introduced) {
      introduced = true;
      const w = view.welcome;
      output.write('\n');
      print('parley', `=== ${w.scenario.id} (${w.mode}) — you are ${w.self.profile.name ?? w.seat} [${w.seat}]`);
      for (const line of w.scenario.text.split('\n')) print('scene', line);
      print('you', `Your goal: ${w.self.goal}`);
      for (const peer of view.peers) print(peer.seat, `(${peer.seat}'s goal: ${peer.goal})`);
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
          const answer = (await ask(`${originLine('parley', '')}Your turn ${request.turn} (${Math.round(request.deadlineMs / 1000)} s). Action [${allowed.join(' / ')}] (Enter = speak): `, signal)).trim().toLowerCase();
          const chosen = answer === '' ? 'speak' : SHORTCUTS[answer] ?? (ACTION_TYPES as readonly string[]).find((t) => t === answer);
          if (chosen && allowed.includes(chosen as ActionType)) type = chosen as ActionType;
          else print('parley', `Please type one of: ${allowed.join(', ')}`);
        }
        const argument = type === 'none' || type === 'leave' ? '' : (await ask('> ', signal)).trim();
        return { ok: true, action: { type, argument }, meta: meta() };
      } catch (err) {
        if (signal.aborted) return { ok: false, error: { code: ErrorCode.DeadlineMissed, message: 'no answer before the turn deadline' }, meta: meta() };
        return { ok: false, error: { code: ErrorCode.PolicyFailed, message: `terminal input failed: ${(err as Error).message}` }, meta: meta() };
      }
    },
    async close() {
      rl?.close();
      rl = null;
    },
  };
}

function formatEvent(e: TurnEvent, self: string): string {
  const who = e.seat === self ? 'you' : e.seat;
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
