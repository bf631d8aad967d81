import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Tests wait on conditions, never on time; these bounds only end a wait that would never
    // end, and must not end one that a busy machine (2 cores, other suites) makes slow.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Suites that talk to Redis use databases of their own, so files may run in parallel.
    pool: 'forks',
    // A worker runs file after file in one process, importing the app once instead of once per
    // file: in a fresh process per file, importing and transforming the app was most of the
    // suite's time (docs/measured.md). So a test file leaves the process as it found it: nock
    // is turned off after the files that use it, servers, clients and child processes closed.
    isolate: false,
    // Most suites wait on GitHub's write pacing (one write a second), not the CPU: one file
    // more than there are cores keeps them busy. On 2 cores this took the suite from 555 s
    // (vitest's default, one file at a time there) to 223 s.
    maxWorkers: availableParallelism() + 1,
    reporters: process.env.CI_JSON_REPORT
      ? ['default', ['json', { outputFile: process.env.CI_JSON_REPORT }]]
      : ['default'],
  },
});
