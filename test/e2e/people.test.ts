/**
 * People's claims end to end (docs/protocol.md §16): every rule of test/e2e/people-scenarios.ts
 * on the real app, one replica, against the fake GitHub. Each test starts its own fake and app.
 */
import { describe, it } from 'vitest';
import { SCENARIOS } from './people-scenarios.js';
import { oneReplica } from './people-world.js';

describe.concurrent('people and agents on one replica', () => {
  for (const scenario of SCENARIOS) {
    it(scenario.name, async ({ onTestFinished }) => {
      await scenario.run(await oneReplica(onTestFinished, scenario.config));
    });
  }
});
