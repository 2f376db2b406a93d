import { policyKind, type PolicyConfig } from '../../protocol/index.js';
import { llmSpecProblem } from '../../llm/spec.js';
import { POLICY_SPECS } from '../../agent-node/policies/registry.js';
import { AgentExit, runAgent } from '../../agent-node/run-agent.js';
import { commandRun, parseParam, UsageError, type CommandSpec } from '../command.js';
import { nonLlmParamProblem } from '../non-llm-params.js';
import { readSeatToken, TOKEN_ENV } from '../token-source.js';

/** The flags only a model's policy reads (an LLM's provider, prompts, cassettes). */
const LLM_ONLY_FLAGS = ['base-url', 'api-key-env', 'prompt-dir', 'reformat-model', 'cassette-dir', 'replay-dir'] as const;

/** `parley agent`'s command line. */
export const spec: CommandSpec = {
  name: 'agent',
  usage: 'parley agent --url ws://HOST:PORT/agent --token-file FILE [--policy SPEC] [options]',
  summary:
    "Plays one seat of an episode: connects to an orchestrator (parley serve / parley run) with the seat's\n" +
    'one-time token and answers every turn with the chosen policy. API keys are read from this machine\'s\n' +
    'environment, never sent anywhere but the provider. Pass the token by file (--token-file FILE, or - for\n' +
    `standard input) or in $${TOKEN_ENV}: on the command line (--token) it is visible in the process list.\n` +
    'Exit codes: 0 the episode ended normally, 2 bad arguments or policy, 3 join refused, 4 connection failed.',
  flags: {
    url: { type: 'string', metavar: 'URL', describe: "the orchestrator's agent endpoint (ws:// or wss://)" },
    'token-file': { type: 'string', metavar: 'FILE', describe: "read the seat token from FILE ('-': standard input): one token, or one 'seat <id> token <T>' line as 'parley serve --tokens-file' writes them" },
    token: { type: 'string', metavar: 'TOKEN', describe: 'the seat token on the command line (visible to other users of the machine)' },
    policy: { type: 'string', metavar: 'SPEC', describe: `${POLICY_SPECS.join(' | ')} (default: bot)` },
    'base-url': { type: 'string', metavar: 'URL', describe: 'provider base URL (any OpenAI-compatible server: vLLM, Ollama, …)' },
    'api-key-env': { type: 'string', metavar: 'NAME', describe: 'environment variable holding the provider key' },
    param: { type: 'string', multiple: true, metavar: 'KEY=VALUE', describe: 'sampling parameter, repeatable (e.g. --param temperature=0.7)' },
    'prompt-dir': { type: 'string', metavar: 'DIR', describe: 'prompt templates overriding the built-in ones' },
    'reformat-model': { type: 'string', metavar: 'SPEC', describe: 'the model asked once to reformat an unreadable generator reply (default under paper: openai:gpt-3.5-turbo for openai: seats, as SOTOPIA, else the seat\'s own model; on the seat\'s endpoint and key)' },
    'cassette-dir': { type: 'string', metavar: 'DIR', describe: 'record LLM requests and responses here' },
    'replay-dir': { type: 'string', metavar: 'DIR', describe: 'answer LLM calls from cassettes recorded under DIR (no network)' },
  },
};

/** `parley agent …`: see the spec above. */
export const run = commandRun(spec, async (args) => {
  const values = args.flags as { url?: string; token?: string; 'token-file'?: string; policy?: string; 'base-url'?: string; 'api-key-env'?: string; param?: string[]; 'prompt-dir'?: string; 'cassette-dir'?: string; 'replay-dir'?: string; 'reformat-model'?: string };
  const problems: string[] = [];
  if (!values.url) problems.push('--url is required');
  else if (!/^wss?:\/\/[^/]+/.test(values.url)) problems.push(`--url must be a ws:// or wss:// URL, got '${values.url}'`);
  const token = readSeatToken({ token: values.token, tokenFile: values['token-file'] });
  if (!token.ok) problems.push(token.message);
  const policySpec = values.policy ?? 'bot';
  const kind = policyKind(policySpec);
  // A bot or a person calls no model: the model's settings would be carried and ignored, so each is
  // refused by name (as `parley run` refuses them per seat: cli/non-llm-params.ts).
  const notLlm = kind === 'bot' || kind === 'human';
  if (notLlm) {
    const unused = LLM_ONLY_FLAGS.filter((f) => values[f] !== undefined);
    if (unused.length) problems.push(`${unused.map((f) => `--${f}`).join(', ')}: no effect on a ${policySpec} seat (not an LLM)`);
  }
  const params: Record<string, unknown> = {};
  for (const p of values.param ?? []) {
    const [key, value] = parseParam(p);
    const unused = notLlm ? nonLlmParamProblem(policySpec, key) : null;
    if (unused) problems.push(`--param ${unused}`);
    params[key] = value;
  }
  const reformat = values['reformat-model'];
  const reformatProblem = reformat === undefined ? null : llmSpecProblem(reformat);
  if (reformatProblem) problems.push(`--reformat-model: ${reformatProblem}`);
  if (problems.length) throw new UsageError(problems.join('; '));
  const policy: PolicyConfig = {
    spec: policySpec,
    params,
    ...(values['base-url'] && { baseURL: values['base-url'] }),
    ...(values['api-key-env'] && { apiKeyEnv: values['api-key-env'] }),
    ...(values['prompt-dir'] && { promptDir: values['prompt-dir'] }),
    ...(values['cassette-dir'] && { cassetteDir: values['cassette-dir'] }),
    ...(values['replay-dir'] && { replayDir: values['replay-dir'] }),
    ...(reformat && { reformat: { spec: reformat } }),
  };
  return runAgent({ url: values.url!, token: (token as { token: string }).token, policy });
});
