import * as z from 'zod';

/**
 * The game definition format (issue 39): a hidden-role game stated as data. The orchestrator enforces it
 * (orchestrator/game/), seats learn only what their role may know (deal.ts builds each seat's private
 * card), and the metrics read the record it produces. A definition is a TypeScript value checked by
 * `defineGame`: the schema first, then the cross references a schema cannot state (a phase naming an
 * unknown role, a win rule naming an unknown team, counts that do not fill the seats).
 */

/**
 * The format's schemas, built on first use rather than at load: every agent process loads this module (a
 * bot may play a game), and building them and compiling their parsers for the two built-in games cost each
 * process ~10 ms of CPU at start, though most seats never play a game.
 */
function partSchemas() {
  const Id = z.string().regex(/^[a-z][a-z0-9_]{0,31}$/, 'lower-case letters, digits and _ (at most 32)');

  /** A side of the game. Members of a team with `channel` know each other and talk on a private channel. */
  const GameTeam = z.object({
    id: Id,
    name: z.string().min(1),
    goal: z.string().min(1),
    channel: z.boolean().default(false),
  }).strict();

  /** A role: how many seats get it, its team, and what the seat is told about it. */
  const GameRole = z.object({
    id: Id,
    name: z.string().min(1),
    team: Id,
    count: z.number().int().min(1).max(12),
    goal: z.string().min(1),
    /** Which word of the dealt word pair the role's seats hold (word games: undercover, 0 or 1). */
    word: z.union([z.literal(0), z.literal(1)]).optional(),
  }).strict();

  /**
   * What a move does. `attack`: the acting team's choice is killed when the night resolves, unless
   * protected. `protect`: saves its target from tonight's attack. `inspect`: the actor alone learns the
   * target's team at once. `vote`: the most-voted seat is eliminated when the phase resolves (a tie
   * eliminates nobody).
   */
  const MoveEffect = z.enum(['attack', 'protect', 'inspect', 'vote']);

  /** Whom a move may target among the seats still in play: any of them, any but the actor, any outside the actor's team. */
  const MoveTargets = z.enum(['any', 'others', 'not_team']);

  const GameMove = z.object({
    /** The word a move starts with: `kill agent3`. */
    verb: Id,
    effect: MoveEffect,
    targets: MoveTargets,
  }).strict();

  /**
   * One phase of a round. Every seat still in play that the phase's `actors` name acts once, in seat order:
   * it speaks (`act: speak`) or makes the phase's move (`act: move`). `channel` says who receives the act:
   * everyone in play and out (`public`), the actor's team (`team`: a team channel) or the actor alone
   * (`private`: a night move nobody else sees; a secret ballot is private until the tally). `resolve`
   * settles the round's moves when the phase ends.
   */
  const GamePhase = z.object({
    id: Id,
    title: z.string().min(1),
    /** Told to every seat when the phase opens (`{round}` is the round number). */
    announce: z.string().min(1),
    actors: z.union([z.literal('all'), z.object({ roles: z.array(Id).min(1) }).strict()]),
    act: z.enum(['speak', 'move']),
    channel: z.enum(['public', 'team', 'private']),
    move: GameMove.optional(),
    resolve: z.enum(['night', 'vote']).optional(),
  }).strict();

  /** A side wins when `team` has nobody left (`eliminated`), or when `team` is at least as many as everyone else (`parity`). */
  const WinRule = z.object({
    when: z.enum(['eliminated', 'parity']),
    team: Id,
    winner: Id,
    message: z.string().min(1),
  }).strict();
  return { Id, GameTeam, GameRole, MoveEffect, GamePhase, WinRule };
}

function formatSchemas() {
  const { Id, GameTeam, GameRole, MoveEffect, GamePhase, WinRule } = partSchemas();
  const definition = z.object({
    id: Id,
    title: z.string().min(1),
    /** The rules every seat is told (public). */
    rules: z.string().min(1),
    teams: z.array(GameTeam).min(2),
    roles: z.array(GameRole).min(2),
    /** One round, in order: the phases repeat until a side wins or the rounds run out. */
    phases: z.array(GamePhase).min(1),
    /** What everyone learns when a seat is out: its role, after a vote and after a night. */
    reveals: z.object({ roleOnVote: z.boolean(), roleOnNight: z.boolean() }).strict(),
    win: z.array(WinRule).min(1),
    /** The side that wins when the rounds run out (the game's bound or `--max-turns`, which counts rounds in a game). */
    timeoutWinner: Id,
    maxRounds: z.number().int().min(1).max(50),
    /** Word pairs for word games, one drawn per episode: [the majority's word, the other word], each with clues a bot may say. */
    words: z.array(z.tuple([z.object({ word: z.string().min(1), clues: z.array(z.string().min(1)).min(1) }), z.object({ word: z.string().min(1), clues: z.array(z.string().min(1)).min(1) })])).optional(),
  }).strict();
  return { MoveEffect, GamePhase, definition };
}

type FormatSchemas = ReturnType<typeof formatSchemas>;
let built: FormatSchemas | undefined;

export type MoveEffect = z.infer<FormatSchemas['MoveEffect']>;
export type GamePhase = z.infer<FormatSchemas['GamePhase']>;
export type GameDefinition = z.infer<FormatSchemas['definition']>;
export type GameDefinitionInput = z.input<FormatSchemas['definition']>;

/** A definition that breaks the format: every problem, each with the path of the field it is about. */
export class GameDefinitionError extends Error {
  constructor(readonly gameId: string, readonly problems: string[]) {
    super(`game definition ${gameId}: ${problems.join('; ')}`);
    this.name = 'GameDefinitionError';
  }
}

/** Checks a definition (schema, then cross references) and returns it parsed; throws `GameDefinitionError` listing every problem. */
export function defineGame(input: GameDefinitionInput): GameDefinition {
  const parsed = (built ??= formatSchemas()).definition.safeParse(input);
  const name = typeof (input as { id?: unknown }).id === 'string' ? (input as { id: string }).id : '(no id)';
  if (!parsed.success) throw new GameDefinitionError(name, parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`));
  const problems = crossCheck(parsed.data);
  if (problems.length) throw new GameDefinitionError(name, problems);
  return parsed.data;
}

function duplicates(ids: readonly string[]): string[] {
  return ids.filter((id, i) => ids.indexOf(id) !== i);
}

/** What the schema cannot say: references between teams, roles, phases and win rules. */
function crossCheck(def: GameDefinition): string[] {
  const problems: string[] = [];
  const teams = new Set(def.teams.map((t) => t.id));
  const roles = new Set(def.roles.map((r) => r.id));
  for (const d of duplicates(def.teams.map((t) => t.id))) problems.push(`teams: ${d} is defined twice`);
  for (const d of duplicates(def.roles.map((r) => r.id))) problems.push(`roles: ${d} is defined twice`);
  for (const d of duplicates(def.phases.map((p) => p.id))) problems.push(`phases: ${d} is defined twice`);
  def.roles.forEach((r, i) => {
    if (!teams.has(r.team)) problems.push(`roles.${i}.team: unknown team ${r.team}`);
    if (r.word !== undefined && !def.words?.length) problems.push(`roles.${i}.word: the game has no words`);
  });
  for (const t of def.teams) if (!def.roles.some((r) => r.team === t.id)) problems.push(`teams: ${t.id} has no role`);
  def.phases.forEach((p, i) => {
    if (p.actors !== 'all') for (const r of p.actors.roles) if (!roles.has(r)) problems.push(`phases.${i}.actors: unknown role ${r}`);
    if (p.act === 'move' && !p.move) problems.push(`phases.${i}.move: a move phase needs its move`);
    if (p.act === 'speak' && p.move) problems.push(`phases.${i}.move: a speaking phase has no move`);
    if (p.resolve === 'vote' && p.move?.effect !== 'vote') problems.push(`phases.${i}.resolve: a vote resolves only in a voting phase`);
    if (p.move?.effect === 'vote' && p.resolve !== 'vote') problems.push(`phases.${i}.resolve: a voting phase must resolve the vote`);
    if (p.channel === 'team' && p.actors !== 'all' && !p.actors.roles.every((r) => def.teams.find((t) => t.id === def.roles.find((x) => x.id === r)?.team)?.channel)) {
      problems.push(`phases.${i}.channel: a team channel needs teams with channel: true`);
    }
  });
  const attacks = def.phases.some((p) => p.move?.effect === 'attack' || p.move?.effect === 'protect');
  if (attacks && !def.phases.some((p) => p.resolve === 'night')) problems.push('phases: attacks and protections need a phase with resolve: night');
  def.win.forEach((w, i) => {
    if (!teams.has(w.team)) problems.push(`win.${i}.team: unknown team ${w.team}`);
    if (!teams.has(w.winner)) problems.push(`win.${i}.winner: unknown team ${w.winner}`);
  });
  if (!teams.has(def.timeoutWinner)) problems.push(`timeoutWinner: unknown team ${def.timeoutWinner}`);
  return problems;
}

/** How many seats the game deals roles to. */
export function seatCount(def: GameDefinition): number {
  return def.roles.reduce((n, r) => n + r.count, 0);
}
