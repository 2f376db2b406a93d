/**
 * The floor seat's request body (bench/floor.md): as long as the real seat's at the same turn, built the
 * least way that still carries what changes between turns (the conversation so far).
 *
 * REAL_BODY_BYTES[turn]: the mean Content-Length of the real agent's chat request at that turn of the
 * latency case (its 20 built-in scenarios, 20 requests a turn: 3,693-4,707 bytes at turn 0, 5,776-6,706 at
 * turn 19), taken from the fake server's received requests of a Parley run on main e791d45
 * (bench/floor.md, "Body lengths"). One request a turn (400 requests for 400 turns).
 */
export const REAL_BODY_BYTES: readonly number[] = [4096, 4226, 4246, 4436, 4455, 4645, 4664, 4854, 4873, 5063, 5083, 5274, 5293, 5485, 5504, 5696, 5715, 5907, 5926, 6119];

/** The real request's `response_format` (the structured-output schema of a move), as sent. */
const RESPONSE_FORMAT =
  '{"type":"json_schema","json_schema":{"name":"parley_action","schema":{"type":"object","properties":{"action_type":{"type":"string","enum":["none","speak","non-verbal communication","action","leave"]},"argument":{"type":"string"}},"required":["action_type","argument"],"additionalProperties":false},"strict":true}}';

/** Filler for the prompt's fixed parts (scenario, profile, rules in the real prompt): plain ASCII words. */
const FILL = 'the scenario, the profile and the rules of the conversation in words '.repeat(120);

/**
 * The body for `turn`: the seat's own opening (`who`: its episode and seat, so that two seats' prompts
 * differ early as the real ones do, where the character's name comes), the conversation so far, filler up to
 * the real length at that turn (the last known length past turn 19), and the response format.
 */
export function floorBody(model: string, turn: number, who: string, conversation: string): string {
  const target = REAL_BODY_BYTES[Math.min(turn, REAL_BODY_BYTES.length - 1)]!;
  const start = `{"temperature":0.7,"model":${JSON.stringify(model)},"messages":[{"role":"system","content":${JSON.stringify(`You play one character, ${who}.`)}},{"role":"user","content":"`;
  const said = JSON.stringify(conversation).slice(1, -1);
  const end = `# Your move\\nYou are at Turn #${turn}."}],"response_format":${RESPONSE_FORMAT}}`;
  const pad = Math.max(0, target - start.length - said.length - end.length);
  return start + FILL.slice(0, pad) + said + end;
}
