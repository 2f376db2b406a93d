import type { Mode, PolicyConfig } from '../protocol/index.js';
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
}
