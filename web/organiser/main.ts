/**
 * The organiser's page of `parley study` (`/organiser#key=K`): the study's counts, refreshed every few
 * seconds while the page is visible. The key stays in the fragment and goes to the server only in an
 * Authorization header. The table is rebuilt only when the counts changed: a page left open for hours
 * changes nothing but its "Updated" line.
 */
import type { OrganiserStats as Stats } from '../../protocol/study.js';
import { setText } from '../shared/dom.js';

const key = /^#key=([0-9a-f]{32})$/.exec(location.hash)?.[1] ?? '';
const $ = (id: string) => document.getElementById(id)!;

function rows(s: Stats): Array<[string, string]> {
  return [
    ['Participants waiting', String(s.participants.waiting)],
    ['Participants playing', String(s.participants.playing)],
    ['Participants at the survey', String(s.participants.survey)],
    ['Participants done', String(s.participants.done)],
    ['Declined consent', String(s.refusals)],
    ['Pairs playing now', String(s.pairsPlaying)],
    ['Playing with an AI partner now', String(s.aiFallbackPlaying)],
    ['Episodes completed', String(s.episodesCompleted)],
    ['Episodes with an AI fallback', String(s.aiFallbackEpisodes)],
    ['Mean time per participant (minutes)', s.meanMinutesPerParticipant === null ? '–' : String(s.meanMinutesPerParticipant)],
    ['Attention-check failures (answers / participants)', `${s.attentionFailures.answers} / ${s.attentionFailures.participants}`],
    ['Withdrawals', String(s.withdrawals)],
  ];
}

async function refresh(): Promise<void> {
  const res = await fetch('/api/organiser', { headers: { authorization: `Bearer ${key}` } });
  if (!res.ok) {
    $('error').hidden = false;
    $('error').textContent = 'This page needs the organiser url printed by parley study (…/organiser#key=…).';
    return;
  }
  if (!$('error').hidden) $('error').hidden = true;
  const body = await res.text();
  setText($('updated'), `Updated ${new Date().toLocaleTimeString()}`);
  if (body === shownStats) return;
  shownStats = body;
  const stats = JSON.parse(body) as Stats;
  $('stats').replaceChildren(...rows(stats).map(([name, value]) => {
    const tr = document.createElement('tr');
    const th = document.createElement('th');
    th.scope = 'row';
    th.textContent = name;
    const td = document.createElement('td');
    td.textContent = value;
    tr.append(th, td);
    return tr;
  }));
}

/** The counts' JSON as last shown. */
let shownStats = '';

void refresh();
setInterval(() => void (document.hidden || refresh()), 5000);
document.addEventListener('visibilitychange', () => void (document.hidden || refresh()));
