import { describe, expect, it } from 'vitest';
import { lightPathFits } from './openai-http-fits.js';

describe('lightPathFits: what only the SDK (and its fetch) would honour leaves requests to the SDK', () => {
  it('takes the light path in a plain environment', () => {
    expect(lightPathFits({}, [])).toBe(true);
  });

  it.each<[string, NodeJS.ProcessEnv, string[]]>([
    ['OPENAI_ORG_ID', { OPENAI_ORG_ID: 'org-1' }, []],
    ['OPENAI_PROJECT_ID', { OPENAI_PROJECT_ID: 'proj-1' }, []],
    ['NODE_USE_ENV_PROXY=1 (fetch then uses HTTPS_PROXY)', { NODE_USE_ENV_PROXY: '1', HTTPS_PROXY: 'http://proxy:3128' }, []],
    ['--use-env-proxy in NODE_OPTIONS', { NODE_OPTIONS: '--max-old-space-size=512 --use-env-proxy' }, []],
    ['--use-env-proxy on the command line', {}, ['--use-env-proxy']],
  ])('%s: the SDK', (_name, env, argv) => {
    expect(lightPathFits(env, argv)).toBe(false);
  });

  it('NODE_USE_ENV_PROXY empty or 0 is off, as is a proxy variable alone (Node\'s fetch ignores it then)', () => {
    expect(lightPathFits({ NODE_USE_ENV_PROXY: '0', HTTPS_PROXY: 'http://proxy:3128' }, [])).toBe(true);
    expect(lightPathFits({ NODE_USE_ENV_PROXY: '', HTTP_PROXY: 'http://proxy:3128' }, [])).toBe(true);
  });
});
