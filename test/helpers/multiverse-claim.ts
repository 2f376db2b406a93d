/**
 * The text of a multiverse claim file whose side a is script mode and side b agents mode, expecting a > b on
 * `metric`, over the built-in MutualFriends scenarios under Parley's protocol. `base` adds its own lines
 * (limit, models, judge …) and `axes` the axes, each `key: value` written as given (YAML flow values).
 */
export function scriptOverAgentsClaim(name: string, metric: string, base: Record<string, string | number>, axes: Record<string, string>): string {
  const lines = (o: Record<string, string | number>) => Object.entries(o).map(([k, v]) => `  ${k}: ${v}\n`).join('');
  return `name: ${name}
claim:
  metric: ${metric}
  a: {mode: script}
  b: {mode: agents}
  expect: a > b
base:
  scenarios: builtin
  subset: mutual_friends
  protocol: parley
${lines(base)}axes:
${lines(axes)}`;
}
