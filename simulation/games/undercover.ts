import type { GameDefinitionInput } from './definition.js';
import { huntWins, secretVote, VOTE_RULE } from './voting.js';

/**
 * Undercover for six, as SOTOPIA's social game engine sets it: four civilians share a word, two
 * undercover players hold a related one. Each round everyone describes their word in one sentence, then
 * all vote. As in SOTOPIA's setting, an undercover player is told its role (in the party game it is not).
 */
export const UNDERCOVER_RULES: GameDefinitionInput = {
  id: 'undercover',
  title: 'Undercover',
  rules: [
    'Six players each hold a secret word. Four civilians share one word; two undercover players hold a different, related word.',
    'Each round everyone still in play describes their word in one sentence without saying it, then all vote in secret:',
    VOTE_RULE,
    'The civilians win when both undercover players are out; the undercover players win when they are as many as the civilians',
    'or still in play when the rounds run out.',
  ].join(' '),
  teams: [
    { id: 'civilians', name: 'the civilians', goal: 'Find the two players whose word differs from yours and vote them out.' },
    { id: 'undercover', name: 'the undercover players', goal: 'Guess the civilians\' word, blend in and survive the votes.' },
  ],
  roles: [
    { id: 'civilian', name: 'Civilian', team: 'civilians', count: 4, goal: 'Describe your word so that fellow civilians recognise it but an outsider cannot copy it.', word: 0 },
    { id: 'undercover', name: 'Undercover', team: 'undercover', count: 2, goal: 'Your word is not the majority\'s: describe it so that you sound like the others.', word: 1 },
  ],
  phases: [
    { id: 'describe', title: 'Describe your word', announce: 'Round {round}: everyone still in play describes their word in one sentence.', actors: 'all', act: 'speak', channel: 'public' },
    secretVote('vote', 'The vote'),
  ],
  reveals: { roleOnVote: true, roleOnNight: false },
  ...huntWins('undercover', 'civilians', {
    eliminated: 'Both undercover players are out: the civilians win.',
    parity: 'The undercover players are as many as the civilians: they win.',
  }),
  maxRounds: 4,
  words: [
    [{ word: 'cat', clues: ['It purrs when it is happy.', 'It likes to sleep in the sun on a windowsill.', 'It chases mice.'] },
      { word: 'dog', clues: ['It wags its tail when you come home.', 'It needs a walk every day.', 'It fetches a ball.'] }],
    [{ word: 'coffee', clues: ['Many people need it in the morning.', 'It is brewed from roasted beans.', 'Espresso is one way to make it.'] },
      { word: 'tea', clues: ['You steep leaves in hot water.', 'Some take it with milk and a biscuit.', 'It comes green or black.'] }],
    [{ word: 'piano', clues: ['It has black and white keys.', 'Hammers strike strings inside it.', 'It is too heavy to carry to a party.'] },
      { word: 'guitar', clues: ['You strum its six strings.', 'It is played around campfires.', 'It has frets along its neck.'] }],
  ],
};
