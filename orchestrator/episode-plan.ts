import type { Mode, PolicyConfig, TurnRecord } from '../protocol/index.js';
import type { Reveal } from './fork/reveal.js';
import type { Scenario } from '../scenarios/model.js';

/** One episode to run: a scenario in a mode, one repeat, with the policy of each live seat. */
export interface EpisodePlan {
  episodeId: string;
  scenario: Scenario;
  mode: Mode;
  repeat: number;
  /**
   * Policy per live seat (scenario seats; `script` for the writer in script mode) for locally hosted
   * seats. Remote seats (`parley serve`) have none: their policy is what the agent reports at join.
   */
  policies?: Record<string, PolicyConfig>;
  /** Which draw of its instance (selection `first-valid` re-draws short or unscored episodes); absent: 0. */
  draw?: number;
  /** What the episode id was made of besides the plan's own fields, so a re-draw's id is made the same way. */
  idKey?: { specs: readonly string[]; protocol?: string };
  /** A fork of a recorded episode: its first turns are the parent's, replayed. */
  fork?: ForkPlan;
}

/** A forked episode (`parley fork`): what it replays of its parent, and what it reveals at the fork turn. */
export interface ForkPlan {
  /** The parent run's id and the parent episode's id (recorded on the fork's record). */
  parentRun: string;
  parentEpisode: string;
  /** The fork turn: the parent's turns before it are replayed, it is the first live turn. */
  at: number;
  /** The parent's turn records `0 … at-1`. */
  prefix: TurnRecord[];
  /** Private fields delivered at the fork turn, parsed, and as given (for the record). */
  reveals: Reveal[];
  revealText: string[];
}
