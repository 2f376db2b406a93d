import type { ProtocolDefinition } from './definition.js';

/**
 * `--protocol parley`: Parley's own protocol. Seats get Parley's prompts with structured output and
 * explicit task moves (select, offer/accept/reject/quit, propose), and task moves end episodes, for
 * objective success and for bots. The protocol of runs that name none and whose scenarios are not all
 * SOTOPIA's (the built-in bot demo), and the one a seat assumes when its welcome names none.
 */
export const PARLEY = {
  name: 'parley' as const,
  summary: 'task moves (default otherwise)',
  logLine: "Parley's task moves and task-end stops; --protocol paper reproduces the paper",
  claims: () => false,
  seat: { prompts: 'native', replyFormat: 'schema', taskMoves: true, reformat: 'continue', stripOwnName: false },
  announced: false,
  profileFields: 'all',
  engine: {
    turnCap: (maxTurns) => maxTurns,
    staleCount: () => 'plain',
    taskEndStops: true,
    cutScripts: true,
    spokenMoves: false,
  },
  defaults: { backgrounds: 'relationship', scriptFormat: 'json', stopRule: 'code', agentTemperature: 'paper', replyReading: 'lenient', leakJudgeOnly: [], showRelationshipStory: false, onUnparsable: 'fail', onProviderError: 'fail', selection: 'all', persona: 'prose' },
  scoring: { judgeView: 'parley', naturalness: 'parley', naturalnessOrders: 'both', mutualFriendsSuccess: 'moves', besideThePaper: false },
  // Seats keep their own default (agent-node's 0.7); `--agent-temperature` is paper's only.
  agentTemperature: () => undefined,
  keyParts: () => [],
  cardHead: () => 'parley — explicit task moves with task-end stops',
} satisfies ProtocolDefinition;
