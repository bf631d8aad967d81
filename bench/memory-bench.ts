import { freePort, stackEnv } from '../sandbox/stack.js';
import { startFakeGitHub } from '../test/fake-github/fake-github.js';
import { fmt, type Section } from './section.js';
import { spawnChild } from './spawn-child.js';

const MB = 1024 * 1024;

interface MemoryFigures {
  readonly indexed: number;
  readonly before: { rss: number; heapUsed: number };
  readonly after: { rss: number; heapUsed: number };
}

/**
 * Memory: one replica (the app as npm start runs it, embedded mode) in a child process with
 * `--expose-gc`; resident and heap memory after a full collection, idle and with 100,000 live
 * claims in its deadline index (bench/child.ts). The fake GitHub runs here, not in the replica.
 */
export async function benchMemory(): Promise<Section> {
  const fake = await startFakeGitHub({ log: () => {} });
  fake.addInstallation({ id: 1, account: 'acme', repos: ['acme/widgets'] });
  let figures: MemoryFigures;
  try {
    const env = stackEnv(fake, await freePort(), { CLAIMS_SWEEP_INTERVAL: '24h' });
    const child = await spawnChild('memory', env, ['--expose-gc']);
    figures = child.ready as unknown as MemoryFigures;
    await child.stop();
  } finally {
    await fake.close();
  }
  const rssDelta = figures.after.rss - figures.before.rss;
  const heapDelta = figures.after.heapUsed - figures.before.heapUsed;
  return {
    id: 'memory',
    title: 'Memory of one replica (embedded mode, MemoryStore deadlines)',
    notes: ['Child process, node --expose-gc, figures after three full collections.'],
    columns: ['live claims indexed', 'RSS', 'heap used', 'RSS per claim', 'heap per claim'],
    rows: [
      [
        '0 (started, idle)',
        `${fmt(figures.before.rss / MB, 1)} MB`,
        `${fmt(figures.before.heapUsed / MB, 1)} MB`,
        '-',
        '-',
      ],
      [
        fmt(figures.indexed),
        `${fmt(figures.after.rss / MB, 1)} MB`,
        `${fmt(figures.after.heapUsed / MB, 1)} MB`,
        `${fmt(rssDelta / figures.indexed)} B`,
        `${fmt(heapDelta / figures.indexed)} B`,
      ],
    ],
    data: {
      indexed: figures.indexed,
      before: figures.before,
      after: figures.after,
      rssDelta,
      heapDelta,
    },
  };
}
