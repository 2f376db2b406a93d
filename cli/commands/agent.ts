import { parseArgs } from 'node:util';
import type { PolicyConfig } from '../../protocol/index.js';
import { POLICY_SPECS } from '../../agent-node/policies/registry.js';
import { AgentExit, runAgent } from '../../agent-node/run-agent.js';
import { readSeatToken, TOKEN_ENV } from '../token-source.js';

const USAGE = `usage: parley agent --url ws://HOST:PORT/agent --token-file FILE [--policy SPEC] [options]
       PARLEY_SEAT_TOKEN=… parley agent --url … ;  parley agent --url … --token-file - < FILE

Plays one seat of an episode: connects to an orchestrator (parley serve / parley run) with the seat's
one-time token and answers every turn with the chosen policy. API keys are read from this machine's
environment, never sent anywhere but the provider. Pass the token by file, standard input or
environment: on the command line it is visible in the process list (and npm's logs under npx).

options:
  --url URL            the orchestrator's agent endpoint (ws:// or wss://)
  --token-file FILE    read the seat token from FILE ('-': standard input); one token, or one
                       'seat <id> token <T>' line as 'parley serve --tokens-file' writes them
  \$${TOKEN_ENV}    the seat token, from the environment
  --token TOKEN        the seat token on the command line (visible to other users of the machine)
  --policy SPEC        ${POLICY_SPECS.join(' | ')} (default: bot)
  --base-url URL       provider base URL (any OpenAI-compatible server: vLLM, Ollama, …)
  --api-key-env NAME   environment variable holding the provider key
  --param KEY=VALUE    sampling parameter, repeatable (e.g. --param temperature=0.7)
  --prompt-dir DIR     prompt templates overriding the built-in ones
  --cassette-dir DIR   record LLM requests and responses here
  --replay-dir DIR     answer LLM calls from cassettes recorded under DIR (no network)
  --help               show this help

exit codes: 0 the episode ended normally, 2 bad arguments or policy, 3 join refused, 4 connection failed`;

/** `KEY=VALUE` → [key, value]; numbers, booleans and JSON literals are parsed, anything else stays a string. */
function parseParam(text: string): [string, unknown] | null {
  const at = text.indexOf('=');
  if (at <= 0) return null;
  const key = text.slice(0, at).trim();
  const raw = text.slice(at + 1).trim();
  try {
    return [key, JSON.parse(raw)];
  } catch {
    return [key, raw];
  }
}

/** `parley agent …`: see USAGE. */
export async function run(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        url: { type: 'string' },
        token: { type: 'string' },
        'token-file': { type: 'string' },
        policy: { type: 'string', default: 'bot' },
        'base-url': { type: 'string' },
        'api-key-env': { type: 'string' },
        param: { type: 'string', multiple: true, default: [] },
        'prompt-dir': { type: 'string' },
        'cassette-dir': { type: 'string' },
        'replay-dir': { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    console.error(`parley agent: ${(err as Error).message}\n\n${USAGE}`);
    return AgentExit.Usage;
  }
  if (values.help) {
    console.log(USAGE);
    return AgentExit.Ok;
  }
  const problems: string[] = [];
  if (!values.url) problems.push('--url is required');
  else if (!/^wss?:\/\/[^/]+/.test(values.url)) problems.push(`--url must be a ws:// or wss:// URL, got '${values.url}'`);
  const token = readSeatToken({ token: values.token, tokenFile: values['token-file'] });
  if (!token.ok) problems.push(token.message);
  const params: Record<string, unknown> = {};
  for (const p of values.param ?? []) {
    const kv = parseParam(p);
    if (kv) params[kv[0]] = kv[1];
    else problems.push(`--param must look like KEY=VALUE, got '${p}'`);
  }
  if (problems.length) {
    console.error(`parley agent: ${problems.join('; ')}\n\n${USAGE}`);
    return AgentExit.Usage;
  }
  const policy: PolicyConfig = {
    spec: values.policy ?? 'bot',
    params,
    ...(values['base-url'] && { baseURL: values['base-url'] }),
    ...(values['api-key-env'] && { apiKeyEnv: values['api-key-env'] }),
    ...(values['prompt-dir'] && { promptDir: values['prompt-dir'] }),
    ...(values['cassette-dir'] && { cassetteDir: values['cassette-dir'] }),
    ...(values['replay-dir'] && { replayDir: values['replay-dir'] }),
  };
  return runAgent({ url: values.url!, token: (token as { token: string }).token, policy });
}
