import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    exclude: ['node_modules/**', 'runs/**'],
    // Multi-process tests spawn real agent processes; give them room but never hang CI.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
