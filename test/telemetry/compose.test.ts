/**
 * The compose files as docker-compose resolves them (Debian's docker-compose; `config` needs
 * no daemon): the app and a Redis that never evicts and keeps its data on a volume, health
 * checks on `/health`, the settings from the example env file, and the three-replica variant
 * behind a balancer.
 */
import { execFile } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

interface Service {
  readonly command?: readonly string[];
  readonly environment?: Record<string, string>;
  readonly healthcheck?: { readonly test: readonly string[] };
  readonly volumes?: ReadonlyArray<string | { readonly source?: string; readonly target: string }>;
  readonly ports?: readonly unknown[];
  readonly scale?: number;
  readonly depends_on?: Record<string, { condition: string }>;
}

/** `docker-compose config` of `file`, with .env.example as the env file. */
async function resolved(file: string): Promise<{ services: Record<string, Service> }> {
  const { stdout } = await promisify(execFile)('docker-compose', ['-f', file, 'config'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', CLAIMS_ENV_FILE: '.env.example' },
  });
  return parse(stdout) as { services: Record<string, Service> };
}

describe.concurrent('compose files', () => {
  it('compose.yaml: the app on every interface, settings from the env file, Redis that never evicts', async () => {
    const { services } = await resolved('compose.yaml');
    const { app, redis } = services;
    expect(app?.environment).toMatchObject({
      HOST: '0.0.0.0',
      CLAIMS_REDIS_URL: 'redis://redis:6379',
      // From .env.example:
      APP_ID: '123456',
    });
    expect(app?.healthcheck?.test.join(' ')).toContain('/health');
    expect(app?.depends_on?.redis?.condition).toBe('service_healthy');
    expect(redis?.command).toEqual(expect.arrayContaining(['--maxmemory-policy', 'noeviction']));
    // A named volume, not the container's own layer: a restart keeps the data.
    expect(redis?.volumes).toEqual(['redis-data:/data:rw']);
    expect(redis?.healthcheck?.test).toEqual(['CMD', 'redis-cli', 'ping']);
  });

  it('compose.replicas.yaml: three replicas on one Redis, only the balancer published', async () => {
    const { services } = await resolved('compose.replicas.yaml');
    const { app, balancer, redis } = services;
    expect(app?.scale).toBe(3);
    expect(app?.ports).toBeUndefined();
    expect(app?.environment?.CLAIMS_REDIS_URL).toBe('redis://redis:6379');
    expect(balancer?.ports).toHaveLength(1);
    expect(balancer?.healthcheck?.test.join(' ')).toContain('/health');
    expect(redis?.command).toEqual(expect.arrayContaining(['noeviction']));
  });
});
