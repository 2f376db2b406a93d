/**
 * The report's transcript pages: one HTML page per episode, `transcripts/<episodeId>.html`, showing that
 * episode next to the episodes of the other modes on the same scenario, character pair and repeat, so
 * the script-vs-agents difference can be read side by side, not only counted.
 */
import type { RunDir } from '../run-dir.js';
import { esc } from '../report/xml.js';
import { reportCsp } from '../report/csp.js';
import { buildTranscript, type Transcript } from './transcript.js';

/** A page file name for an episode id (ids are already file-safe; anything else is replaced). */
export function transcriptFile(episodeId: string): string {
  return `${episodeId.replace(/[^A-Za-z0-9._-]/g, '_')}.html`;
}

/** Episodes of the same run, scenario, character pair and repeat, one per mode: read side by side. */
export interface EpisodeGroup {
  key: string;
  run: RunDir;
  scenarioId: string;
  pairId: string;
  repeat: number;
  /** Transcripts in mode order (script, agents, mindreaders, then anything else). */
  transcripts: Transcript[];
}

const MODE_ORDER = ['script', 'agents', 'mindreaders'];

/** Groups every episode of the runs by (run, scenario, pair, repeat). */
export function groupEpisodes(runs: readonly RunDir[]): EpisodeGroup[] {
  const groups = new Map<string, EpisodeGroup>();
  for (const run of runs) {
    for (const e of run.episodes) {
      const r = e.record;
      const key = `${run.dir}\u0000${r.scenarioId}\u0000${r.pairId}\u0000${r.repeat}`;
      let g = groups.get(key);
      if (!g) groups.set(key, (g = { key, run, scenarioId: r.scenarioId, pairId: r.pairId, repeat: r.repeat, transcripts: [] }));
      g.transcripts.push(buildTranscript(r, run.scenarios.get(r.scenarioId)));
    }
  }
  const rank = (m: string) => (MODE_ORDER.includes(m) ? MODE_ORDER.indexOf(m) : MODE_ORDER.length);
  for (const g of groups.values()) g.transcripts.sort((a, b) => rank(a.mode) - rank(b.mode) || a.episodeId.localeCompare(b.episodeId));
  return [...groups.values()];
}

function column(t: Transcript, current: boolean): string {
  const turns = t.lines
    .map((l) => {
      const body = (l.kind === 'speak' ? `“${esc(l.text)}”` : `<em>[${esc(l.kind)}]</em> ${esc(l.text)}`) + (l.note ? ` <small>(${esc(l.note)})</small>` : '');
      return `<li class="${l.kind === 'error' || l.note ? 'err' : ''}"><span class="n">#${esc(l.turn)}</span> <b>${esc(l.name)}</b>${l.to ? ` <em>[${l.to.length ? `private to ${esc(l.to.join(', '))}` : 'private'}]</em>` : ''} ${body}</li>`;
    })
    .join('\n');
  return `<section class="col${current ? ' current' : ''}" id="${esc(t.episodeId)}">
<h2>${esc(t.mode)}${current ? '' : ` <a href="${esc(transcriptFile(t.episodeId))}">↗</a>`}</h2>
<p class="meta">${esc(t.episodeId)} · ${esc(t.status)}</p>
<ul class="seats">${t.seats.map((s) => `<li>${esc(s.seat)}: ${esc(s.name)} (${esc(s.who)})</li>`).join('')}</ul>
<ol class="turns">
${turns}
</ol>
<p><b>end:</b> ${esc(t.end)}<br/><b>outcome:</b> ${esc(t.outcome)}</p>
${t.errors.map((e) => `<p class="err">error: ${esc(e)}</p>`).join('\n')}
${t.scores.length ? `<ul class="scores">${t.scores.map((s) => `<li>${esc(s)}</li>`).join('')}</ul>` : '<p class="meta">not evaluated</p>'}
</section>`;
}

const CSS = `body{font-family:sans-serif;margin:1em;color:#222}.cols{display:flex;gap:1em;align-items:flex-start}
.col{flex:1;min-width:0;border:1px solid #ddd;padding:0 .8em;font-size:13px}.col.current{border:2px solid #4363d8}
.turns{list-style:none;padding:0}.turns li{margin:.3em 0}.n{color:#888}.meta{color:#666;font-size:12px}.err{color:#b00}`;

/** The page of one episode of a group: that episode first, highlighted, then the other modes. */
export function transcriptPage(group: EpisodeGroup, episodeId: string, reportHref = '../report.html'): string {
  const current = group.transcripts.find((t) => t.episodeId === episodeId)!;
  const others = group.transcripts.filter((t) => t !== current);
  const title = `${current.scenario} · pair ${group.pairId} · repeat ${group.repeat}`;
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"/>${reportCsp()}<title>${esc(current.episodeId)}</title><style>${CSS}</style></head><body>
<p><a href="${esc(reportHref)}">← report</a></p>
<h1>${esc(title)}</h1>
<p class="meta">${others.length ? `side by side with the ${others.map((o) => esc(o.mode)).join(', ')} episode(s) of the same scenario, pair and repeat` : 'no other mode ran this scenario, pair and repeat'}</p>
<div class="cols">
${[current, ...others].map((t) => column(t, t === current)).join('\n')}
</div>
</body></html>
`;
}
