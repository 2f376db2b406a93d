import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkScenario } from '../check.js';
import { ScenarioError } from '../errors.js';
import { importCocoaCraigslist } from './cocoa-craigslist.js';
import { importCocoaMutualFriends } from './cocoa-mutualfriends.js';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures');
let dir: string;
beforeAll(async () => { dir = await mkdtemp(path.join(os.tmpdir(), 'parley-cocoa-')); });
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

describe('cocoa CraigslistBargain import', () => {
  it('reads each side\'s role, target, bottomline and the item', async () => {
    const s = await importCocoaCraigslist(path.join(FIXTURES, 'cocoa-craigslist.json'));
    expect(s.map((x) => x.id)).toEqual(['CL_fixture_kayak', 'CL_fixture_lamp', 'CL_fixture_tablet']);
    for (const x of s) {
      expect(checkScenario(x)).toEqual([]);
      expect(x).toMatchObject({ kind: 'craigslist', source: 'cocoa-craigslist', subsets: ['craigslist_bargains'], relationship: { level: 0 } });
      expect(x.seats[0]!.character.id).not.toBe(x.seats[1]!.character.id);
    }
    const [kayak, lamp] = s;
    expect(kayak!.seats.map((x) => x.task)).toMatchObject([
      { role: 'buyer', target: 210, bottomline: null, item: { listingPrice: 300, description: 'Aluminium trailer that clips onto most bike frames.' } },
      { role: 'seller', target: 300, bottomline: 240, item: { description: 'Aluminium trailer that clips onto most bike frames. Carries up to 40 kg. One tyre has a slow puncture.' } },
    ]);
    expect(kayak!.truth).toMatchObject({ kind: 'craigslist', title: 'Folding kayak trailer hitch for bicycles', category: 'bike', listingPrice: 300 });
    // Seller listed first in the file: seats keep the file's order; the buyer keeps its own (shorter) description.
    expect(lamp!.seats.map((x) => x.task)).toMatchObject([
      { role: 'seller', target: 80 },
      { role: 'buyer', target: 40, bottomline: 55, item: { description: 'Tall brass floor lamp, warm light, dimmer switch on the cord.' } },
    ]);
    expect(lamp!.seats[0]!.goal).toContain('seller');
    expect(lamp!.seats[1]!.goal).toContain('$40');
  });

  it('is deterministic and names record line and field on errors, for a missing Target', async () => {
    const file = path.join(FIXTURES, 'cocoa-craigslist.json');
    expect(await importCocoaCraigslist(file)).toEqual(await importCocoaCraigslist(file));
    const bad = path.join(dir, 'cl-bad.json');
    const rec = { uuid: 'U1', category: 'bike', kbs: [
      { personal: { Role: 'buyer', Bottomline: null }, item: { Title: 'T', Category: 'bike', Price: 10, Description: ['d'], Images: [] } },
      { personal: { Role: 'seller', Target: 10, Bottomline: null }, item: { Title: 'T', Category: 'bike', Price: 10, Description: ['d'], Images: [] } },
    ] };
    await writeFile(bad, JSON.stringify([rec, rec], null, 1));
    const e = (await importCocoaCraigslist(bad).catch((x: unknown) => x)) as ScenarioError;
    expect(e).toBeInstanceOf(ScenarioError);
    expect(e.code).toBe('scenarios/missing_field');
    expect(e.field).toBe('0.kbs.0.personal.Target');
    expect(e.line).toBe(2);
    await writeFile(bad, '[\n {"uuid": "x",\n  "kbs": [}\n]');
    const j = (await importCocoaCraigslist(bad).catch((x: unknown) => x)) as ScenarioError;
    expect([j.code, j.line]).toEqual(['scenarios/bad_json', 3]);
  });
});

describe('cocoa MutualFriends import', () => {
  it('reads both friend lists and finds the one shared friend', async () => {
    const s = await importCocoaMutualFriends(path.join(FIXTURES, 'cocoa-mutualfriends.json'));
    expect(s.map((x) => x.truth)).toEqual([
      { kind: 'mutual_friends', answer: { Name: 'Ottilie', School: 'Lakeshore State University', Hobby: 'Pottery' } },
      { kind: 'mutual_friends', answer: { Name: 'Esther', Company: 'Tidewell Energy', Major: 'Nursing', 'Time Preference': 'morning' } },
      { kind: 'mutual_friends', answer: { Name: 'Reuben', 'Location Preference': 'indoors', School: 'Old Quarry College', Company: 'Quillbright Press' } },
    ]);
    for (const x of s) {
      expect(checkScenario(x)).toEqual([]);
      expect(x.source).toBe('cocoa-mutualfriends');
      expect(x.judgeOnly).toBe(`They have 1 common friend: ${x.truth?.kind === "mutual_friends" && x.truth.answer.Name}.`);
      const t = x.seats[0]!.task!;
      expect(t.kind === 'mutual_friends' && t.attributes[0]).toBe('Name');
    }
  });

  it('rejects lists without exactly one shared friend and friends without a Name', async () => {
    const bad = path.join(dir, 'mf-bad.json');
    const f = (n: string) => ({ Name: n, School: 'S' });
    await writeFile(bad, JSON.stringify([{ uuid: 'M1', kbs: [[f('A'), f('B')], [f('C'), f('D')]] }]));
    const e = (await importCocoaMutualFriends(bad).catch((x: unknown) => x)) as ScenarioError;
    expect([e.code, e.field, e.line]).toEqual(['scenarios/invalid_field', '0.kbs', 1]);
    await writeFile(bad, JSON.stringify([{ uuid: 'M1', kbs: [[f('A')], [{ School: 'S' }]] }], null, 2));
    const n = (await importCocoaMutualFriends(bad).catch((x: unknown) => x)) as ScenarioError;
    expect(n.field).toBe('0.kbs.1.0.Name');
    expect(n.line).toBe(2);
  });
});
