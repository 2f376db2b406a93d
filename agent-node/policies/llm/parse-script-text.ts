import type { Action, ActionType, ScriptRequest, ScriptTurn } from '../../../protocol/index.js';
import { MAX_ARGUMENT, type Parsed } from './parse-action.js';

/** The free-text format in short, for the reformat request. */
export const SCRIPT_TEXT_SHAPE =
  'Turn #0\n<Name> said: "<words>"\nTurn #1\n<Name> [non-verbal communication] <gesture>\nTurn #2\n<Name> [action] <physical action>\nTurn #3\n<Name> did nothing\nTurn #4\n<Name> left the conversation';


/** A `Turn #n` marker at the start of a line, with whatever follows it on that line. */
const TURN_MARKER = /^\s*(?:\*\*)?\s*turn\s*#?\s*(\d+)\s*(?:\*\*)?\s*[:.)-]?\s*(?:\*\*)?\s*(.*)$/i;

/** Participants by how the writer may call them: full name, then first name (only when unique). */
function speakerMatcher(request: ScriptRequest): (line: string) => { seat: string; rest: string } | null {
  const seats = request.background.seats.map((s) => ({ seat: s.seat, name: (s.profile.name ?? s.seat).trim() }));
  const firstCounts = new Map<string, number>();
  for (const s of seats) {
    const f = s.name.split(/\s+/)[0]!.toLowerCase();
    firstCounts.set(f, (firstCounts.get(f) ?? 0) + 1);
  }
  const candidates = [
    ...seats.map((s) => ({ seat: s.seat, label: s.name })),
    ...seats.filter((s) => firstCounts.get(s.name.split(/\s+/)[0]!.toLowerCase()) === 1).map((s) => ({ seat: s.seat, label: s.name.split(/\s+/)[0]! })),
    ...seats.map((s) => ({ seat: s.seat, label: s.seat })),
  ].sort((a, b) => b.label.length - a.label.length);
  return (line) => {
    // A list label (`a. `, `3) `) is dropped: SOTOPIA's full-script examples are lettered lines.
    const text = line.replace(/^\s*(?:(?:[a-z]|\d{1,2})[.)]\s+)?[-*]?\s*(?:\*\*)?\[?/, '');
    const lower = text.toLowerCase();
    for (const c of candidates) {
      if (!lower.startsWith(c.label.toLowerCase())) continue;
      const rest = text.slice(c.label.length);
      // The name must end there (not a longer name that merely starts the same way).
      if (rest !== '' && /^[\p{L}\p{N}]/u.test(rest)) continue;
      return { seat: c.seat, rest: rest.replace(/^\]?(?:\*\*)?\s*:?\s*/, ' ').trim() };
    }
    return null;
  };
}

const unquote = (s: string) => {
  const t = s.trim();
  // Non-ASCII as \u escapes: the CLI bundle stays ASCII, read as a one-byte string (test/cli-bundle.test.ts).
  const m = /^["\u201c](.*)["\u201d]\s*\.?$/s.exec(t);
  return (m ? m[1]! : t).trim();
};

/** One action as written after the name, in SOTOPIA's renderings (and a few common slips). */
export function readScriptAction(rest: string): Action | null {
  const t = rest.trim();
  // SOTOPIA's parse_single_dialogue tests `"did nothing" in action_content` before anything else: any action
  // containing it, a speech included (`said: "I did nothing wrong"`), is a `none` (issue 42).
  if (t.includes('did nothing') || /^(\[none\]\s*)?did nothing\.?$/i.test(t)) return { type: 'none', argument: '' };
  if (/^(\[leave\]\s*)?left the conversation\.?$/i.test(t) || /^\[leave\]/i.test(t)) return { type: 'leave', argument: '' };
  const said = /^(?:\[speak\]\s*)?(?:said|says|asked|asks)\s*:?\s*([\s\S]+)$/i.exec(t);
  if (said) return { type: 'speak', argument: unquote(said[1]!).slice(0, MAX_ARGUMENT) };
  const bracket = /^\[(non-verbal communication|nonverbal communication|non-verbal|action)\]\s*:?\s*([\s\S]*)$/i.exec(t);
  if (bracket) {
    const type: ActionType = bracket[1]!.toLowerCase() === 'action' ? 'action' : 'non-verbal communication';
    const arg = unquote(bracket[2]!);
    return arg ? { type, argument: arg.slice(0, MAX_ARGUMENT) } : null;
  }
  // Next SOTOPIA tested `"left the conversation" in action_content`: a leave with words after it
  // (`left the conversation and went home`) is still a leave there, checked before anything else is read.
  if (t.includes('left the conversation')) return { type: 'leave', argument: '' };
  // `Name: "words"` — a plain line of dialogue.
  if (/^["\u201c]/.test(t)) return { type: 'speak', argument: unquote(t).slice(0, MAX_ARGUMENT) };
  return null;
}

/** An action SOTOPIA's parse_single_dialogue reads whole from one line (a speech closes its quote there). */
const SOTOPIA_WHOLE_ACTION = /did nothing|left the conversation|^(?:\[speak\] )?said: "[^"]*"|^\[(?:non-verbal communication|action)\] /;

/**
 * SOTOPIA's split_by_turn kept the last turn's marker and the one line after it and dropped the rest
 * (a closing remark such as "(End of the script)"). Parley reads a speech continuing over lines, so the
 * rest is dropped only when that first line is an action SOTOPIA read whole; else it may be the speech's
 * continuation, and is kept.
 */
function dropAfterLastTurn(blocks: string[], speaker: (line: string) => { seat: string; rest: string } | null): void {
  const last = blocks.length - 1;
  const [first, ...more] = (blocks[last] ?? '').split('\n');
  if (!first || more.length === 0) return;
  const who = speaker(first);
  if (who && SOTOPIA_WHOLE_ACTION.test(who.rest)) blocks[last] = first;
}

/**
 * Reads the paper's free-text script: `Turn #n` lines, each followed by `<Name> <action>` (on the same
 * line or the next), actions in SOTOPIA's renderings. Tolerates Markdown bold, a colon after the turn
 * number, blank lines, a preamble before the first turn, first names, and a spoken line continuing
 * over several lines; after the last turn's action line, what SOTOPIA dropped is dropped. Without any `Turn #` marker, one `<Name> <action>` per line is accepted (SOTOPIA's
 * other script format). A turn that names no participant or has no readable action fails the whole
 * script with the reason (an explicit error: never a guessed or dropped turn).
 */
export function parseScriptText(content: string, request: ScriptRequest): Parsed<ScriptTurn[]> {
  const speaker = speakerMatcher(request);
  const lines = content.replace(/```[a-z]*\n?/gi, '').split(/\r?\n/);
  const blocks: string[] = [];
  let sawMarker = false;
  for (const line of lines) {
    const m = TURN_MARKER.exec(line);
    if (m) {
      sawMarker = true;
      blocks.push(m[2]!.trim());
      continue;
    }
    if (!sawMarker) continue;
    if (line.trim() === '') continue;
    const i = blocks.length - 1;
    blocks[i] = blocks[i] ? `${blocks[i]}\n${line.trim()}` : line.trim();
  }
  if (sawMarker) dropAfterLastTurn(blocks, speaker);
  let lenient = false;
  if (!sawMarker) {
    lenient = true;
    blocks.push(...lines.map((l) => l.trim()).filter((l) => l !== '' && speaker(l) !== null));
  }
  if (blocks.length === 0) return { ok: false, reason: 'no turns found (expected "Turn #n" lines, each followed by "<Name> <action>")' };
  const allowed = new Set<ActionType>(request.limits.actions);
  const turns: ScriptTurn[] = [];
  for (const [i, block] of blocks.entries()) {
    if (block.trim() === '') return { ok: false, reason: `turn ${i}: empty` };
    const who = speaker(block);
    if (!who) return { ok: false, reason: `turn ${i}: no participant named in ${JSON.stringify(block.slice(0, 80))}` };
    const action = readScriptAction(who.rest);
    if (!action) return { ok: false, reason: `turn ${i}: unreadable action ${JSON.stringify(who.rest.slice(0, 80))}` };
    if (!allowed.has(action.type)) return { ok: false, reason: `turn ${i}: action type "${action.type}" is not allowed` };
    // Turns after a leave are kept: the orchestrator cuts the script there and counts what it dropped.
    turns.push({ seat: who.seat, action });
  }
  return { ok: true, value: turns, lenient };
}
