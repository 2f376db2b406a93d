import type { ProtocolDefinition } from './definition.js';

/** Agents' and mindreaders' temperature in SOTOPIA's code as its runner scripts ran it (generate.gin). */
const CODE_AGENT_TEMPERATURE = 1.0;
/** The paper's temperature for every generator (appendix F). */
const PAPER_TEXT_TEMPERATURE = 0.7;

/** The card's words for the agents' temperature; a run.json from before the setting records none (its agents sampled at 0.7). */
function temperatureWords(v: unknown): string {
  if (v === 'code') return `; agents and mindreaders that set no temperature sample at ${CODE_AGENT_TEMPERATURE.toFixed(1)}, as SOTOPIA's code (\`--agent-temperature code\`)`;
  if (v === 'paper') return `; agents and mindreaders that set no temperature sample at ${PAPER_TEXT_TEMPERATURE}, as the paper's text (\`--agent-temperature paper\`)`;
  return '';
}

/**
 * `--protocol paper`: the paper's simulation as SOTOPIA's code (tag agent_vs_storyteller_v1) ran it.
 * Each generator gets exactly the information of SOTOPIA's prompts; episodes end by leave, the turn limit
 * or the stale rule (no task move ends one); the script writer writes free text; an unreadable reply gets
 * one reformat request and then becomes a counted `none`. docs/fidelity.md lays it beside the paper.
 */
export const PAPER = {
  name: 'paper' as const,
  summary: "SOTOPIA's prompts and stop rules (default for SOTOPIA scenarios)",
  logLine: "SOTOPIA's prompts and stop rules; docs/fidelity.md",
  // A scenario set wholly from SOTOPIA is run as the paper ran it unless the user chooses otherwise.
  claims: (scenarios) => scenarios.length > 0 && scenarios.every((s) => s.source === 'sotopia'),
  seat: { prompts: 'sotopia', replyFormat: 'in-prompt', taskMoves: false, reformat: 'sotopia', stripOwnName: true },
  announced: true,
  profileFields: 'rendered',
  engine: {
    // SOTOPIA's code stops only after turn #maxTurns (`turn_number > max_turn_number`): maxTurns + 1 moves.
    turnCap: (maxTurns, p) => (p.stopRule === 'code' ? maxTurns + 1 : maxTurns),
    staleCount: (p) => (p.stopRule === 'code' ? 'masked' : 'plain'),
    taskEndStops: false,
    cutScripts: false,
    spokenMoves: true,
  },
  // SOTOPIA's runner scripts sample agents and mindreaders at 1.0 (generate.gin); the paper's appendix F says 0.7.
  agentTemperature: (p) => (p.agentTemperature === 'paper' ? PAPER_TEXT_TEMPERATURE : CODE_AGENT_TEMPERATURE),
  defaults: { backgrounds: 'code', scriptFormat: 'text', stopRule: 'code', agentTemperature: 'code', replyReading: 'code', leakJudgeOnly: [], showRelationshipStory: false, onUnparsable: 'none', onProviderError: 'none', selection: 'first-valid', persona: 'prose' },
  // Both orders by default (an LLM judge's position bias; issue 42); `compare --orders one` is the paper's single random order.
  scoring: { judgeView: 'paper', naturalness: 'paper', naturalnessOrders: 'both', mutualFriendsSuccess: 'paper', besideThePaper: true },
  keyParts: (p) => [p.backgrounds, p.scriptFormat, p.stopRule],
  cardHead: (p, esc) =>
    `paper — SOTOPIA's prompts; backgrounds ${esc(p.backgrounds)}, script format ${esc(p.scriptFormat)}, stop rules as the ${p.stopRule === 'paper' ? 'paper words them' : 'code runs them'}` +
    temperatureWords(p.agentTemperature),
} satisfies ProtocolDefinition;
