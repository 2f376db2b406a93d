/**
 * Seeds for LLM task generation in the SOTOPIA-π manner: short everyday situations to be expanded into
 * full scenarios. Written for Parley; users can pass their own with `--inspiration FILE`.
 */
export const BUILTIN_INSPIRATIONS: readonly string[] = [
  'A tenant wants the landlord to fix a broken heater before a cold weekend.',
  'Two coworkers both want the same week off around a holiday.',
  'A neighbour\'s dog barks every night and the other neighbour cannot sleep.',
  'A student asks a classmate to share lecture notes they were paid to take.',
  'Two siblings disagree about moving their elderly parent into a care home.',
  'A customer wants a refund for a cake that arrived with the wrong name on it.',
  'A volunteer coordinator needs one more person for an early Sunday shift.',
  'Two friends split a restaurant bill but one of them ordered much more.',
  'A cyclist and a driver argue after a near miss at a crossing.',
  'A manager must tell a team member that their project is being cancelled.',
  'A band member wants to replace the drummer, who is also their cousin.',
  'Two strangers on a night train both want the lower bunk.',
  'A parent asks another parent to stop their child from bullying.',
  'A freelancer has not been paid for three months and calls the client.',
  'Flatmates disagree about getting a cat.',
  'A shop owner suspects a regular customer of shoplifting.',
  'A researcher asks a colleague to be added as an author on a paper.',
  'Two hikers disagree whether to turn back as the weather worsens.',
  'A guest accidentally breaks a valuable vase at a dinner party.',
  'A city council member asks a local baker to support a new parking rule.',
];

/** The default example shown to the generator: the JSON shape Parley asks for, with hints and judge-only text. */
export const BUILTIN_EXAMPLE = {
  codename: 'borrowed_ladder',
  scenario:
    'Two neighbours meet over the garden fence. One of them borrowed the other\'s ladder a month ago and ' +
    'it has not been returned; the owner now needs it to clear the gutters before a storm.',
  agent_goals: [
    'Get your ladder back today without souring the friendship <extra_info>You noticed one rung is now bent.</extra_info>',
    'Keep the ladder until the weekend to finish painting <strategy_hint>Offer something in return for the extra days.</strategy_hint>',
  ],
  relationship: 'acquaintance',
  judge_only: 'The borrower bent a rung and is hoping nobody notices.',
};
