/**
 * A warm LLM seat's turns in one process, for counting their instructions under callgrind (issue 44,
 * contract 1; a bench tool kept here because bench/ may not import agent-node/): a figure no load on the machine moves, for A/B of a per-turn change at any load.
 *
 * One process plays an `openai:` seat episode after episode (a welcome each, ten moves of its own, as a seat of
 * the latency case does): each move's frames arrive as bytes and go through the edge decode, the seat's view,
 * the runner (deadline, the reply's check), the policy (prompt from the real templates, the repair ladder),
 * the client (retries, attempt signal, structured-output ladder, the light HTTP path's request bytes and
 * answer parse on an in-memory connection: llm/http1-pool.ts rehearsalConnection), the cassette's line on
 * disk, and the reply's frame (JSON, masked WebSocket frame). Not here: the kernel's side of the socket
 * writes and reads, and a seat's connection set-up (a real run adds both).
 *
 *   npx tsx agent-node/testing/turn-instructions.ts [--warm 400] [--turns 400] [--pause]
 *
 * With `--pause` it stops after the warm turns and after the measured ones, each time until SIGUSR2, so a
 * script can zero callgrind's counters and dump them between (bench/agent-profile.md, seventeenth pass):
 *   valgrind --tool=callgrind --callgrind-out-file=cg.out node --predictable --import tsx agent-node/testing/turn-instructions.ts --pause &
 *   (wait for "warm"), callgrind_control -z PID, kill -USR2 PID, (wait for "measured"), callgrind_control -d PID, kill -USR2 PID
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { defaultOptions } from '../../llm/options.js';
import { rehearsalConnection } from '../../llm/http1-pool.js';
import { createOpenAiClient } from '../../llm/openai-client.js';
import { decodeOrchestratorFrame, stamp, type AgentFrame, type SeatWelcome, type TurnRequest } from '../../protocol/index.js';
import { LlmPolicy } from '../policies/llm/llm-policy.js';
import { loadTemplates } from '../policies/llm/templates.js';
import { aliceView } from '../policies/llm/test-views.js';
import { runTurn } from '../policy-runner.js';
import { SeatViewState } from '../seat-view-state.js';
import { MODEL_SEAT_V8_FLAGS } from '../v8-tiering.js';
import { clientFrame, WsOp } from '../ws/frame-writer.js';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}
const warm = arg('warm', 400);
const measured = arg('turns', 400);
const pause = process.argv.includes('--pause');

// As an agent process that hosts a model seat (agent-node/v8-tiering.ts).
setFlagsFromString(MODEL_SEAT_V8_FLAGS);

const BASE_URL = 'http://turns.invalid/v1';
const LINES = ['Are you free on Friday?', 'I have an exam at eight, so I need the evening quiet.', 'Could we keep it small, maybe ten people?', 'Fine, but the music stops at eleven.', 'Deal. I will tell everyone.'];

/** The model's answer: a speak move as JSON, the way an OpenAI-compatible server sends a chat completion. */
function answer(): Buffer {
  const body = JSON.stringify({
    id: 'chatcmpl-1', object: 'chat.completion', created: 0, model: 'bench',
    choices: [{ index: 0, message: { role: 'assistant', content: JSON.stringify({ action_type: 'speak', argument: 'I hear you, and I think we can find a way that works for both of us tonight.' }) }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 1500, completion_tokens: 30, total_tokens: 1530 },
  });
  return Buffer.from(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: keep-alive\r\nkeep-alive: timeout=600\r\n\r\n${body}`);
}

const dir = mkdtempSync(join(tmpdir(), 'parley-turns-'));
const removeConnection = rehearsalConnection(new URL(BASE_URL), answer());
const config = { spec: 'openai:bench', params: {}, cassetteDir: dir };
const client = createOpenAiClient({ model: 'bench', apiKey: 'sk-bench', baseURL: BASE_URL, options: defaultOptions('openai'), sampling: {} });
const policy = new LlmPolicy(config, loadTemplates(), client);
const stop = new AbortController();
const bytes = (frame: object) => Buffer.from(JSON.stringify(frame));
let sent = 0;

/** One episode of this seat: its welcome, then `moves` of its own, each after the partner's. */
async function episode(n: number, moves: number): Promise<void> {
  const welcome = { ...aliceView().welcome, id: `w${n}`, episodeId: `ep-${n}` } satisfies SeatWelcome;
  const state = new SeatViewState();
  const decoded = decodeOrchestratorFrame(bytes(welcome));
  if (!decoded.ok || decoded.frame.type !== 'seat.welcome') throw new Error('welcome refused');
  state.welcome(decoded.frame);
  for (let m = 0; m < moves; m++) {
    const turn = 2 * m + 1;
    for (const frame of [
      { v: 1, id: `e${turn - 1}`, type: 'turn.event', turn: turn - 1, seat: 'B', action: { type: 'speak', argument: LINES[m % LINES.length] } },
      { v: 1, id: `q${turn}`, type: 'turn.request', turn, actions: ['none', 'speak', 'non-verbal communication', 'action', 'leave'], deadlineMs: 60_000 },
    ]) {
      const d = decodeOrchestratorFrame(bytes(frame));
      if (!d.ok) throw new Error(d.message);
      if (d.frame.type === 'turn.event') state.event(d.frame);
      else if (d.frame.type === 'turn.request') {
        const reply = await runTurn(policy, state.snapshot(), d.frame as TurnRequest, { graceMs: 1000, signal: stop.signal });
        if (reply.type !== 'turn.act') throw new Error(`no move: ${JSON.stringify(reply)}`);
        sent += clientFrame(WsOp.Text, JSON.stringify(stamp<AgentFrame>(reply, `a${turn}`))).length;
        // Its own move comes back as an event, as the orchestrator echoes it.
        const echo = decodeOrchestratorFrame(bytes({ v: 1, id: `e${turn}`, type: 'turn.event', turn, seat: 'A', action: reply.action }));
        if (echo.ok && echo.frame.type === 'turn.event') state.event(echo.frame);
      }
    }
  }
}

/** Until SIGUSR2; a timer keeps the process alive meanwhile (a signal's listener does not). */
const waitForSignal = () =>
  new Promise<void>((resolve) => {
    const alive = setInterval(() => {}, 60_000);
    process.once('SIGUSR2', () => {
      clearInterval(alive);
      resolve();
    });
  });

async function play(turns: number, from: number): Promise<number> {
  let n = from;
  for (let left = turns; left > 0; left -= 10) await episode(n++, Math.min(10, left));
  return n;
}

try {
  const next = await play(warm, 0);
  if (pause) {
    console.log('warm');
    await waitForSignal();
  }
  const before = process.cpuUsage();
  await play(measured, next);
  const cpu = process.cpuUsage(before);
  console.log(`measured ${measured} turns: ${((cpu.user + cpu.system) / 1000 / measured).toFixed(3)} ms of CPU a turn (${sent} frame bytes sent)`);
  if (pause) await waitForSignal();
} finally {
  removeConnection();
  await policy.close();
  rmSync(dir, { recursive: true, force: true });
}
