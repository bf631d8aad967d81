/**
 * Issue 20, defect 13, from outside: the real process, spawned, with a bad setting stops at
 * start-up with a message naming the variable, instead of failing later with a message that
 * names none (`getaddrinfo ENOTFOUND`).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../src/app/main.js';
import { logSink, PRIVATE_KEY, WEBHOOK_SECRET } from '../helpers/app-harness.js';
import { type Spawned, spawnStart } from './spawned-start.js';

const running: Spawned[] = [];
afterEach(async () => {
  for (const spawned of running.splice(0)) await spawned.close();
});

async function startWith(
  extra: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  const spawned = spawnStart({
    APP_ID: '1',
    PRIVATE_KEY,
    WEBHOOK_SECRET,
    PORT: '0',
    HOST: '127.0.0.1',
    // Nothing listens here: a start-up that got past its settings would retry, not exit.
    GHE_HOST: '127.0.0.1:9',
    GHE_PROTOCOL: 'http',
    ...extra,
  });
  running.push(spawned);
  const code = await spawned.exited();
  return { code, output: spawned.output() };
}

// Each test spawns the real entry (tsx compiles it first): slow on a busy machine.
describe('a bad setting stops the real process naming the variable', { timeout: 60_000 }, () => {
  it('HOST that does not resolve', async () => {
    const { code, output } = await startWith({ HOST: 'no-such-host.invalid' });
    expect(code).toBe(1);
    expect(output).toMatch(/HOST: .*no-such-host\.invalid/);
    expect(output).not.toContain('getaddrinfo');
  });

  it('HOST that is not a host', async () => {
    const { code, output } = await startWith({ HOST: 'http://0.0.0.0:3000' });
    expect(code).toBe(1);
    expect(output).toMatch(/HOST: must be an IP address or a host name/);
  });

  it('a one-character CLAIMS_EVENTS_SECRET', async () => {
    const { code, output } = await startWith({
      CLAIMS_EVENTS_URL: 'https://hooks.example.com/claims',
      CLAIMS_EVENTS_SECRET: 'x',
    });
    expect(code).toBe(1);
    expect(output).toMatch(/CLAIMS_EVENTS_SECRET: .*openssl rand -hex 32/);
  });

  it('CLAIMS_EVENTS_SECRET without CLAIMS_EVENTS_URL', async () => {
    const { code, output } = await startWith({ CLAIMS_EVENTS_SECRET: 'e'.repeat(32) });
    expect(code).toBe(1);
    expect(output).toMatch(/CLAIMS_EVENTS_URL: .*CLAIMS_EVENTS_SECRET/);
  });

  it('CLAIMS_PUBLIC_URL with a user name and password', async () => {
    const { code, output } = await startWith({
      CLAIMS_PUBLIC_URL: 'https://admin:hunter2@claims.example.com',
    });
    expect(code).toBe(1);
    expect(output).toMatch(/CLAIMS_PUBLIC_URL: /);
    expect(output).not.toContain('hunter2');
  });
});

describe('setup mode checks HOST too', { timeout: 60_000 }, () => {
  it('a HOST that does not resolve stops the setup server naming HOST', async () => {
    const spawned = spawnStart({ PORT: '0', HOST: 'no-such-host.invalid' });
    running.push(spawned);
    expect(await spawned.exited()).toBe(1);
    expect(spawned.output()).toMatch(/HOST: .*no-such-host\.invalid/);
    expect(spawned.output()).not.toContain('getaddrinfo');
  });
});

describe('listen failures name the variable', () => {
  it('a HOST that resolves but is not this machine’s stops start-up naming HOST', async () => {
    const failed = main(
      {
        APP_ID: '1',
        PRIVATE_KEY,
        WEBHOOK_SECRET,
        PORT: '0',
        // TEST-NET-1 (RFC 5737): an address no machine here holds.
        HOST: '192.0.2.1',
        GHE_HOST: '127.0.0.1:9',
        GHE_PROTOCOL: 'http',
        LOG_LEVEL: 'fatal',
      },
      { logDestination: logSink([]) },
    );
    await expect(failed).rejects.toThrow(/HOST: must be an address of this machine/);
  });
});
