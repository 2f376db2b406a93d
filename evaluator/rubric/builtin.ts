import { DIMENSIONS } from '../dimensions.js';
import { makeRubric, type Rubric, type RubricDimension } from './rubric.js';

const sotopiaDimensions: RubricDimension[] = DIMENSIONS.map((d) => ({ name: d.name, label: d.label, min: d.min, max: d.max, criteria: d.rubric, seats: 'all' }));

/** SOTOPIA-EVAL's seven dimensions: the default rubric; judge requests under it are byte-identical to before rubrics existed. */
export const SOTOPIA_RUBRIC: Rubric = makeRubric('sotopia', sotopiaDimensions);

/** SOTOPIA's goal-only evaluation: the goal dimension alone, 0–10, with SOTOPIA-EVAL's goal criteria. */
export const GOAL_RUBRIC: Rubric = makeRubric(
  'goal',
  sotopiaDimensions.filter((d) => d.name === 'goal'),
);

export const BUILTIN_RUBRICS: ReadonlyMap<string, Rubric> = new Map([
  [SOTOPIA_RUBRIC.name, SOTOPIA_RUBRIC],
  [GOAL_RUBRIC.name, GOAL_RUBRIC],
]);

/** True for the default rubric (also for records written before rubrics, which name none). */
export function isSotopia(ref: { name: string; hash: string } | undefined): boolean {
  return !ref || (ref.name === SOTOPIA_RUBRIC.name && ref.hash === SOTOPIA_RUBRIC.hash);
}
