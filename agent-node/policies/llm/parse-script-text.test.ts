import { describe, expect, it } from 'vitest';
import { parseScriptText, readScriptAction } from './parse-script-text.js';
import { scriptRequest } from './test-views.js';

const req = scriptRequest(20);
const parse = (text: string) => parseScriptText(text, req);

describe('parseScriptText: the paper\'s free-text script', () => {
  it('reads every action type in SOTOPIA\'s renderings', () => {
    const r = parse([
      'Turn #0', 'Alice Chen said: "Could you keep it down?"',
      'Turn #1', 'Bob Lee [non-verbal communication] rolls his eyes',
      'Turn #2', 'Alice Chen [action] turns off the speaker',
      'Turn #3', 'Bob Lee did nothing',
      'Turn #4', 'Alice Chen left the conversation',
    ].join('\n'));
    expect(r).toEqual({ ok: true, lenient: false, value: [
      { seat: 'A', action: { type: 'speak', argument: 'Could you keep it down?' } },
      { seat: 'B', action: { type: 'non-verbal communication', argument: 'rolls his eyes' } },
      { seat: 'A', action: { type: 'action', argument: 'turns off the speaker' } },
      { seat: 'B', action: { type: 'none', argument: '' } },
      { seat: 'A', action: { type: 'leave', argument: '' } },
    ] });
  });

  it('tolerates a preamble, bold markers, colons, first names, same-line turns, blank lines and multi-line speech', () => {
    const r = parse('Here is the script:\n\n**Turn #1:**\nAlice said: "Hi."\n\nTurn #2: Bob Lee said: "Hello,\nhow are you?"\nTurn 3\nBob Lee: "Fine."');
    expect(r.ok && r.value).toEqual([
      { seat: 'A', action: { type: 'speak', argument: 'Hi.' } },
      { seat: 'B', action: { type: 'speak', argument: 'Hello,\nhow are you?' } },
      { seat: 'B', action: { type: 'speak', argument: 'Fine.' } },
    ]);
  });

  it('accepts SOTOPIA\'s other layout (one `<Name> <action>` per line, no turn markers), as lenient', () => {
    const r = parse('Alice Chen said: "Hi."\nBob Lee [action] waves');
    expect(r).toMatchObject({ ok: true, lenient: true, value: [{ seat: 'A' }, { seat: 'B', action: { type: 'action', argument: 'waves' } }] });
  });

  it('drops what follows the last turn\'s action line, as SOTOPIA\'s split_by_turn did, but keeps a speech that goes on', () => {
    const left = parse('Turn #0\nAlice Chen said: "Hi."\nTurn #1\nBob Lee left the conversation\n(End of the script)');
    expect(left).toMatchObject({ ok: true, value: [{ seat: 'A' }, { seat: 'B', action: { type: 'leave' } }] });
    const said = parse('Turn #0\nAlice Chen said: "Hi."\nTurn #1\nBob Lee said: "Bye."\nThe end.');
    expect(said.ok && said.value[1]!.action).toEqual({ type: 'speak', argument: 'Bye.' });
    const gesture = parse('Turn #0\nAlice Chen [non-verbal communication] waves\n\nThat is the whole script.');
    expect(gesture.ok && gesture.value[0]!.action).toEqual({ type: 'non-verbal communication', argument: 'waves' });
    // A speech whose quote closes on a later line is not cut.
    const long = parse('Turn #0\nBob Lee said: "Hello,\nhow are you?"');
    expect(long.ok && long.value[0]!.action).toEqual({ type: 'speak', argument: 'Hello,\nhow are you?' });
  });

  it('reads any other action holding "left the conversation" as a leave, as SOTOPIA\'s parse_single_dialogue did', () => {
    const r = parse('Turn #0\nAlice Chen said: "Hi."\nTurn #1\nBob Lee left the conversation and went home');
    expect(r.ok && r.value[1]!.action).toEqual({ type: 'leave', argument: '' });
    // A speech or a bracket action is read as such first, as there.
    expect(readScriptAction('said: "I left the conversation early"')).toEqual({ type: 'speak', argument: 'I left the conversation early' });
    expect(readScriptAction('[action] left the conversation')).toEqual({ type: 'action', argument: 'left the conversation' });
  });

  it('an unparsable script is an explicit failure with the reason, never a guess', () => {
    expect(parse('INT. KITCHEN — they argue.')).toMatchObject({ ok: false, reason: expect.stringContaining('no turns found') });
    expect(parse('Turn #0\nCarol Smith said: "Hi"')).toMatchObject({ ok: false, reason: expect.stringContaining('no participant named') });
    expect(parse('Turn #0\nAlice Chen shouts loudly')).toMatchObject({ ok: false, reason: expect.stringContaining('unreadable action') });
    expect(parse('Turn #0\n')).toMatchObject({ ok: false, reason: expect.stringContaining('empty') });
  });

  it('refuses an action type the request does not allow', () => {
    const narrow = { ...req, limits: { ...req.limits, actions: ['speak' as const, 'leave' as const] } };
    expect(parseScriptText('Turn #0\nAlice Chen [action] waves', narrow)).toMatchObject({ ok: false, reason: expect.stringContaining('not allowed') });
  });

  it('reads the `[speak] said:` slip SOTOPIA\'s parser also accepts', () => {
    expect(readScriptAction('[speak] said: "ok"')).toEqual({ type: 'speak', argument: 'ok' });
    // SOTOPIA's parser tests "did nothing" first: a speech containing it is a none (issue 42).
    expect(readScriptAction('said: "I did nothing wrong"')).toEqual({ type: 'none', argument: '' });
    expect(readScriptAction('Did nothing.')).toEqual({ type: 'none', argument: '' });
  });
});
