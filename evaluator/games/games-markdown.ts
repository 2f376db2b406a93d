import type { EpisodeRecord } from '../../protocol/index.js';
import { gameDefinition } from '../../simulation/games/index.js';
import { mdCell } from '../report/card.js';
import { wilson } from '../stats/wilson.js';
import { rateWithIntervals } from './bradley-terry.js';
import { deception, modelPairs, playedGames, voteAccuracy, winTallies, type Tally } from './game-metrics.js';

const pct = (x: number | null) => (x === null ? '—' : `${(x * 100).toFixed(0)}%`);

/** `wins/n rate [lo, hi]`: a Wilson 95% interval. */
function rateCell(c: { wins: number; n: number }): string {
  const w = wilson(c.wins, c.n);
  return `${c.wins}/${c.n} ${pct(w.p)} [${pct(w.lo)}, ${pct(w.hi)}]`;
}

/** A role's or side's display name from its game's definition (the id when the game is unknown here). */
function named(key: string, kind: 'role' | 'team'): [string, string] {
  const [game, id] = key.split('\u0000') as [string, string];
  const def = gameDefinition(game);
  const name = kind === 'role' ? def?.roles.find((r) => r.id === id)?.name : def?.teams.find((t) => t.id === id)?.name;
  return [game, name ?? id];
}

function keyedRows(t: Tally, kind: 'role' | 'team'): string[] {
  return [...t].sort(([a], [b]) => a.localeCompare(b)).map(([key, c]) => {
    const [game, name] = named(key, kind);
    return `| ${mdCell(game)} | ${mdCell(name)} | ${rateCell(c)} |`;
  });
}

function modelRows(t: Tally): string[] {
  return [...t].sort(([a], [b]) => a.localeCompare(b)).map(([model, c]) => `| ${mdCell(model)} | ${rateCell(c)} |`);
}

/** The sides a game's players hide in: a side some win rule wants eliminated. */
const hiddenSides = (game: string) => gameDefinition(game)?.win.filter((w) => w.when === 'eliminated').map((w) => w.team) ?? [];

/**
 * The report's section on hidden-role games (issue 39): win rates by role, side and model, vote accuracy,
 * deception success, and, when two or more models played, a Bradley–Terry rating of each model with
 * bootstrap intervals. Empty when the runs hold no game.
 */
export function gamesMarkdown(records: readonly EpisodeRecord[]): string[] {
  const withGame = records.filter((r) => r.game);
  if (!withGame.length) return [];
  const games = playedGames(withGame);
  const lines = ['## Games', ''];
  lines.push(`${withGame.length} game episodes, ${games.length} ended with a winning side (${withGame.length - games.length} stopped, failed or written as a script without a winner). Rates are wins / trials with a Wilson 95% interval; one trial per seat per game.`, '');
  if (!games.length) return lines;
  const wins = winTallies(games);
  lines.push('### Win rate by role', '', '| game | role | wins / seats, rate [95% CI] |', '|---|---|---|', ...keyedRows(wins.byRole, 'role'), '');
  lines.push('### Win rate by side', '', '| game | side | wins / seats, rate [95% CI] |', '|---|---|---|', ...keyedRows(wins.bySide, 'team'), '');
  lines.push('### Win rate by model', '', '| model | wins / seats, rate [95% CI] |', '|---|---|', ...modelRows(wins.byModel), '');
  const votes = voteAccuracy(games);
  lines.push('### Vote accuracy', '', 'Of the valid ballots a side cast, the share naming a player of another side.', '');
  lines.push('| game | voter side | hits / ballots, rate [95% CI] |', '|---|---|---|', ...keyedRows(votes.bySide, 'team'), '');
  lines.push('| voter model | hits / ballots, rate [95% CI] |', '|---|---|', ...modelRows(votes.byModel), '');
  const dec = deception(games, hiddenSides);
  lines.push('### Deception success', '', 'For players of a hiding side (werewolves, undercover players): the votes they survived of the votes they faced in play.', '');
  lines.push('| game | role | survived / votes faced, rate [95% CI] |', '|---|---|---|', ...keyedRows(dec.byRole, 'role'), '');
  lines.push('| model | survived / votes faced, rate [95% CI] |', '|---|---|', ...modelRows(dec.byModel), '');
  lines.push(...ratingsMarkdown(games));
  return lines;
}

function ratingsMarkdown(games: ReturnType<typeof playedGames>): string[] {
  const { results, gamesPlayed } = modelPairs(games);
  const ratings = rateWithIntervals(results, gamesPlayed);
  if (ratings.length < 2) return [];
  return [
    '### Model ratings (Bradley–Terry)',
    '',
    `Fitted to ${results.length} comparisons from ${games.length} games: in each game every player of the winning side beat every player of a losing side, counted between the models that played them. Elo scale (1500 at the models' geometric mean; 400 points are 10:1 odds), a half win each way between models that met; 95% intervals from 500 bootstrap resamples of whole games.`,
    '',
    '| rank | model | games | rating | 95% interval |',
    '|---|---|---|---|---|',
    ...ratings.map((r, i) => `| ${i + 1} | ${mdCell(r.model)} | ${r.games} | ${r.rating.toFixed(0)} | [${r.lo.toFixed(0)}, ${r.hi.toFixed(0)}] |`),
    '',
  ];
}
