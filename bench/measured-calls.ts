import type { RecordedRequest } from '../test/fake-github/fake-github.js';
import type { Section } from './section.js';

/** The GitHub calls of one scenario, from the fake GitHub's request log. */
export interface Measured {
  readonly scenario: string;
  readonly calls: number;
  readonly reads: number;
  readonly writes: number;
  /** The least any correct implementation could call (docs/api-budget.md). */
  readonly floor: number;
  /** `METHOD path status` of each call, in order. */
  readonly requests: readonly string[];
}

/** Counts the requests of one scenario next to its floor. */
export function summarise(scenario: string, floor: number, requests: RecordedRequest[]): Measured {
  const reads = requests.filter((r) => r.method === 'GET').length;
  return {
    scenario,
    calls: requests.length,
    reads,
    writes: requests.length - reads,
    floor,
    requests: requests.map((r) => `${r.method} ${r.path} ${r.status}`),
  };
}

/** A bench section of measured scenarios: calls, reads, writes, the floor and how far over. */
export function callsSection(id: string, title: string, results: readonly Measured[]): Section {
  return {
    id,
    title,
    notes: [
      'Each scenario on a settled app (token minted, config cached); floors derived in docs/api-budget.md.',
    ],
    columns: ['scenario', 'calls', 'reads', 'writes', 'floor', 'over'],
    rows: results.map((r) => [
      r.scenario,
      String(r.calls),
      String(r.reads),
      String(r.writes),
      String(r.floor),
      r.calls > r.floor ? `+${r.calls - r.floor}` : '-',
    ]),
    data: results,
  };
}
