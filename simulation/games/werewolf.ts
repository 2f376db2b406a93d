import type { GameDefinitionInput } from './definition.js';
import { huntWins, secretVote, VOTE_RULE } from './voting.js';

/**
 * Werewolf for six (issue 39): two werewolves, a seer, a doctor and two villagers. The phases follow the
 * order of SOTOPIA's social game engine (werewolves, then seer, then the village's protector at night;
 * one round of public talk, then a vote, by day), with the doctor in place of SOTOPIA's witch:
 * docs/fidelity.md and docs/games.md say where the two differ.
 */
export const WEREWOLF_RULES: GameDefinitionInput = {
  id: 'werewolf',
  title: 'Werewolf',
  rules: [
    'Six players; two of them are secretly werewolves, the others are the village (a seer, a doctor and two villagers).',
    'Each round has a night and a day. At night the werewolves talk on their own channel and pick someone to kill;',
    'the seer learns whether one player is a werewolf; the doctor guards one player, who survives an attack that night.',
    'At dawn everyone hears who died. By day everyone still in play speaks once, then all vote in secret:',
    VOTE_RULE,
    'The village wins when no werewolf is left; the werewolves win when they are as many as the others.',
    'Players who are out take no further part.',
  ].join(' '),
  teams: [
    { id: 'village', name: 'the village', goal: 'Find the werewolves and vote them out before they outnumber you.' },
    { id: 'wolves', name: 'the werewolves', goal: 'Kill villagers by night and escape the vote by day until you are as many as they are.', channel: true },
  ],
  roles: [
    { id: 'werewolf', name: 'Werewolf', team: 'wolves', count: 2, goal: 'Agree with your fellow werewolf on a victim each night; by day, pass for a villager.' },
    { id: 'seer', name: 'Seer', team: 'village', count: 1, goal: 'Each night, learn whether one player is a werewolf; use what you learn, with care, to steer the vote.' },
    { id: 'doctor', name: 'Doctor', team: 'village', count: 1, goal: 'Each night, guard one player (yourself included) from the werewolves.' },
    { id: 'villager', name: 'Villager', team: 'village', count: 2, goal: 'Listen, reason and vote out the werewolves.' },
  ],
  phases: [
    { id: 'night_talk', title: 'Night: the werewolves confer', announce: 'Night {round} falls. The werewolves wake and confer in private.', actors: { roles: ['werewolf'] }, act: 'speak', channel: 'team' },
    { id: 'night_kill', title: 'Night: the werewolves choose', announce: 'The werewolves choose their victim.', actors: { roles: ['werewolf'] }, act: 'move', channel: 'team', move: { verb: 'kill', effect: 'attack', targets: 'not_team' } },
    { id: 'night_seer', title: 'Night: the seer looks', announce: 'The seer wakes and looks into one player.', actors: { roles: ['seer'] }, act: 'move', channel: 'private', move: { verb: 'inspect', effect: 'inspect', targets: 'others' } },
    { id: 'night_doctor', title: 'Night: the doctor guards', announce: 'The doctor wakes and guards one player.', actors: { roles: ['doctor'] }, act: 'move', channel: 'private', move: { verb: 'protect', effect: 'protect', targets: 'any' }, resolve: 'night' },
    { id: 'day_talk', title: 'Day: discussion', announce: 'Day {round} breaks. Everyone still in play speaks once.', actors: 'all', act: 'speak', channel: 'public' },
    secretVote('day_vote', 'Day: the vote'),
  ],
  reveals: { roleOnVote: true, roleOnNight: true },
  ...huntWins('wolves', 'village', {
    eliminated: 'No werewolf is left: the village wins.',
    parity: 'The werewolves are as many as the rest: the werewolves win.',
  }),
  maxRounds: 6,
};
