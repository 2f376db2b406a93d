import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseStudyFile } from './study-file.js';

const dir = mkdtempSync(join(tmpdir(), 'parley-study-file-'));
writeFileSync(join(dir, 'consent.md'), 'Consent text.\n');
const file = join(dir, 'STUDY.yaml');

/** Issue 41's minimal study file, as written there. */
const MINIMAL = `kind: seats                  # or annotate
scenarios: builtin
subset: mutual_friends
modes: [agents]
partner: bot                 # the policy that fills a seat no person takes in time
waitSeconds: 60
consent: {file: consent.md, version: 1}
participantParam: PROLIFIC_PID
sessionsPerParticipant: 1
survey:
  - {id: partner_was, question: "Was your partner a person or an AI?", choices: [person, AI]}
completion: {code: C1A2B3}   # or {redirect: "https://…"}
`;

describe('study files', () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("accepts the issue's minimal file as written, with the consent text read beside it", () => {
    const r = parseStudyFile(MINIMAL, file);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.study.consentText).toBe('Consent text.\n');
    expect(r.study.completion).toEqual({ code: 'C1A2B3' });
    expect(r.study.sessionsPerParticipant).toBe(1);
  });

  it.each([
    ['waitSeconds: 60', 'waitSeconds: -1', /STUDY\.yaml:6: waitSeconds: /],
    ['partner: bot ', 'partner: huamn ', /STUDY\.yaml:5: partner: /],
    ['modes: [agents]', 'modes: [script]', /STUDY\.yaml:4: modes: script mode has no seat/],
    ['choices: [person, AI]', 'choices: [person, person]', /STUDY\.yaml:11: survey\.0\.choices: choices must differ/],
    ['completion: {code: C1A2B3}', 'completion: {redirect: "javascript:alert(1)"}', /STUDY\.yaml:12: completion/],
    ['sessionsPerParticipant: 1', 'sessionsPerParticipant: 1\nwaitSecs: 3', /STUDY\.yaml:10: waitSecs: unknown key 'waitSecs'/],
    ['consent: {file: consent.md, version: 1}', 'consent: {file: missing.md, version: 1}', /STUDY\.yaml:7: consent\.file: cannot read/],
    ['kind: seats', 'kind: annotate', /STUDY\.yaml:1: kind: annotate is not served by parley study yet/],
    ['participantParam: PROLIFIC_PID', 'participantParam: "a b"', /STUDY\.yaml:8: participantParam: /],
  ])('refuses %s → %s with the file and line', (from, to, message) => {
    const r = parseStudyFile(MINIMAL.replace(from, to), file);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toMatch(message);
  });

  it('refuses an attention check whose answer is not a choice', () => {
    const r = parseStudyFile(MINIMAL.replace('choices: [person, AI]}', 'choices: [person, AI], attention: robot}'), file);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toMatch(/survey\.0\.attention: attention must be one of the choices/);
  });
});
