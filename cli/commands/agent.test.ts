import { describe, expect, it } from 'vitest';
import { UsageError } from '../command.js';
import { run } from './agent.js';

// Port 1 on loopback: an accepted command line would dial it and fail with exit 4, not a usage error.
const base = ['--url', 'ws://127.0.0.1:1/agent', '--token', 'tok'];

describe('parley agent', () => {
  it("refuses a model's settings on a bot or human seat, naming each", async () => {
    for (const [extra, message] of [
      [['--policy', 'bot', '--base-url', 'http://127.0.0.1:9/v1', '--reformat-model', 'openai:gpt-4'], '--base-url, --reformat-model: no effect on a bot seat (not an LLM)'],
      [['--api-key-env', 'K', '--prompt-dir', 'p', '--cassette-dir', 'c', '--replay-dir', 'r'], '--api-key-env, --prompt-dir, --cassette-dir, --replay-dir: no effect on a bot seat'],
      [['--policy', 'bot:mutual_friends', '--param', 'temperature=0.3'], "--param 'temperature' has no effect on a bot:mutual_friends seat"],
      [['--policy', 'human', '--param', 'delayMs=5'], "--param 'delayMs' has no effect on a human seat"],
    ] as const) {
      const refused = run([...base, ...extra]);
      await expect(refused).rejects.toThrow(UsageError);
      await expect(refused).rejects.toThrow(message);
    }
  });
});
