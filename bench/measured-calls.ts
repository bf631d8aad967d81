import type { RecordedRequest } from '../test/fake-github/fake-github.js';
import type { Section } from './section.js';

/**
 * The GitHub calls of one scenario, from the fake GitHub's request log. `calls`, `reads` and
 * `writes` are what GitHub counts against the rate limit; a 304 answer is not counted, and is
 * in `notModified` instead.
 */
export interface Measured {
  readonly scenario: string;
  readonly calls: number;
  readonly reads: number;
  readonly writes: number;
  /** Conditional reads answered 304 (docs/api-budget.md): free of the rate limit. */
  readonly notModified: number;
  /** The least any correct implementation could call (docs/api-budget.md). */
  readonly floor: number;
  /** `METHOD path status` of each call, in order. */
  readonly requests: readonly string[];
}

/**
 * Whether GitHub counts the request against the rate limit: every answer but a 304 to a
 * conditional read (docs/api-budget.md).
 */
export function isCounted(request: RecordedRequest): boolean {
  return request.status !== 304;
}

/** Counts the requests of one scenario next to its floor, 304 answers apart. */
export function summarise(scenario: string, floor: number, requests: RecordedRequest[]): Measured {
  const counted = requests.filter(isCounted);
  const reads = counted.filter((r) => r.method === 'GET').length;
  return {
    scenario,
    calls: counted.length,
    reads,
    writes: counted.length - reads,
    notModified: requests.length - counted.length,
    floor,
    requests: requests.map((r) => `${r.method} ${r.path} ${r.status}`),
  };
}

/**
 * A bench section of measured scenarios: the counted calls, reads and writes, the 304s, the
 * floor and how far over.
 */
export function callsSection(id: string, title: string, results: readonly Measured[]): Section {
  return {
    id,
    title,
    notes: [
      'Each scenario on a settled app (token minted, config cached); floors derived in docs/api-budget.md.',
      'Calls are those GitHub counts against the rate limit; 304 answers to conditional reads are apart.',
    ],
    columns: ['scenario', 'calls', 'reads', 'writes', '304s', 'floor', 'over'],
    rows: results.map((r) => [
      r.scenario,
      String(r.calls),
      String(r.reads),
      String(r.writes),
      String(r.notModified),
      String(r.floor),
      r.calls > r.floor ? `+${r.calls - r.floor}` : '-',
    ]),
    data: results,
  };
}
