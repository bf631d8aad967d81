/**
 * People's claims on three replicas sharing Redis (docs/protocol.md §16, §5): the scenarios
 * of test/e2e/people-scenarios.ts, each delivery sent to the next replica in turn, the sweep
 * run by whichever replica's turn it is. Needs Redis (CLAIMS_TEST_REDIS_URL).
 */
import { describe, it } from 'vitest';
import { SCENARIOS } from '../e2e/people-scenarios.js';
import { threeReplicas } from '../e2e/people-world.js';

describe('people and agents on three replicas', () => {
  for (const scenario of SCENARIOS) {
    it(scenario.name, async ({ onTestFinished }) => {
      await scenario.run(await threeReplicas(onTestFinished, scenario.config));
    });
  }
});
