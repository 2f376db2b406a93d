import type { JudgeView } from '../protocol/judge-view.js';
import type { BackgroundsRule, PersonaRendering, ScriptFormat, SeatCapabilities } from '../protocol/simulation-protocol.js';
import type { AgentTemperature, JudgeOnlyLeakTarget, ReplyReading, OnProviderError, OnUnparsable, Selection, StopRule } from './values.js';

/**
 * The settings of a resolved protocol a definition gives defaults for (settings.ts declares each one;
 * `mindread` has no default: absent, everyone reads everyone).
 */
export interface ProtocolDefaults {
  backgrounds: BackgroundsRule;
  scriptFormat: ScriptFormat;
  stopRule: StopRule;
  /** Agents' and mindreaders' temperature when their policy sets none: SOTOPIA's code (1.0) or the paper's text (0.7). */
  agentTemperature: AgentTemperature;
  /** How an agent's reply is read: SOTOPIA's parser (`code`) or Parley's lenient reading. */
  replyReading: ReplyReading;
  leakJudgeOnly: JudgeOnlyLeakTarget[];
  showRelationshipStory: boolean;
  onUnparsable: OnUnparsable;
  /** A seat's LLM call failed after its retries: a counted `none` (SOTOPIA's code) or a failed episode. */
  onProviderError: OnProviderError;
  /** Which draws count: the first valid draw of each instance (SOTOPIA re-drew short and unscored episodes) or every one. */
  selection: Selection;
  /** How profiles are written into Parley's own prompt templates (SOTOPIA's templates render their own way). */
  persona: PersonaRendering;
}

/** The settings a definition's rules read (a resolved protocol, simulation/resolved.ts). */
export type RuleSettings = Pick<ProtocolDefaults, 'backgrounds' | 'scriptFormat' | 'stopRule' | 'agentTemperature' | 'replyReading'>;

/** How a judge's reply is repaired and what the naturalness question looks like: the judge view's form. */
export type NaturalnessForm = JudgeView;

/**
 * One simulation protocol, stated in one place (issue 34): what a seat is told, the engine's rules, the
 * scoring defaults, the episode-id key and the card's words. Everything else reads these fields; no code
 * outside simulation/ tests a protocol's name. A third protocol is one more file like paper.ts, listed
 * in protocols.ts.
 */
export interface ProtocolDefinition {
  /** `--protocol NAME`; recorded in run.json and in episode ids. */
  readonly name: string;
  /** `--protocol`'s help for this value, and the run log's line after `protocol: KEY`. */
  readonly summary: string;
  readonly logLine: string;
  /** Whether a run that names no protocol follows this one, given where its scenarios come from. */
  claims(scenarios: readonly { source?: string }[]): boolean;

  /** What a seat is told: sent as `protocol.seat` in `seat.welcome` and `script.request`. */
  readonly seat: SeatCapabilities;
  /**
   * Whether frames name the protocol at all. The protocol a seat assumes when told none (agents older than
   * the setting) is not announced, so its frames and ledgers stay as they were.
   */
  readonly announced: boolean;
  /** Which profile fields reach a seat: every one (`all`) or only those SOTOPIA's renderer shows (`rendered`). */
  readonly profileFields: 'all' | 'rendered';

  /** The engine's rules. */
  readonly engine: {
    /** The most moves an episode may have under `--max-turns`. */
    turnCap(maxTurns: number, p: RuleSettings): number;
    /** How trailing `none`s are counted for the stale rule: SOTOPIA's code (masked moves included) or plainly. */
    staleCount(p: RuleSettings): 'masked' | 'plain';
    /** Whether task moves end an episode (a Craigslist accept or quit, every MutualFriends seat selected, ...). */
    readonly taskEndStops: boolean;
    /** Whether a script is cut where a live episode would stop (else every scripted turn is kept). */
    readonly cutScripts: boolean;
    /** Whether outcomes are read from what seats say (no task moves) rather than from their moves. */
    readonly spokenMoves: boolean;
  };

  /**
   * The temperature an agent or mindreader seat samples at when its policy sets none, told to the seat
   * in its welcome (`protocol.agentTemperature`); undefined: the seat's own default (agent-node's 0.7).
   */
  agentTemperature(p: RuleSettings): number | undefined;

  /** The settings' defaults under this protocol (a user's setting overrides each). */
  readonly defaults: ProtocolDefaults;

  /** The scoring defaults. */
  readonly scoring: {
    /** What the full judge is shown when neither `--judge-view` nor the run chose. */
    readonly judgeView: JudgeView;
    /** The form of `parley compare`'s naturalness question. */
    readonly naturalness: NaturalnessForm;
    /**
     * How many presentation orders `parley compare` asks each pair in when `--orders` is not given: `both`
     * (a win only when the two answers agree; LLM judges favour a position) or `one` (one seeded random order).
     */
    readonly naturalnessOrders: 'one' | 'both';
    /** MutualFriends success: the paper's (the friend named in what was said) or a correct `select` move (`moves`). */
    readonly mutualFriendsSuccess: 'paper' | 'moves';
    /** Whether the report sets this run's figures beside the paper's published ones. */
    readonly besideThePaper: boolean;
  };

  /** The episode-id key's first parts (the settings add theirs when they depart from the defaults). */
  keyParts(p: RuleSettings): string[];
  /** The card's first words about the protocol; `esc` escapes a recorded value for Markdown. */
  cardHead(p: Partial<RuleSettings>, esc: (v: unknown) => string): string;
}
