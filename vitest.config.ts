import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Suites that talk to Redis use databases of their own, so files may run in parallel.
    pool: 'forks',
    reporters: process.env.CI_JSON_REPORT
      ? ['default', ['json', { outputFile: process.env.CI_JSON_REPORT }]]
      : ['default'],
  },
});
