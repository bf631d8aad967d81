/**
 * Every alert an operator gets is actionable: a summary, a severity, and a runbook link to a
 * section of docs/operations.md that exists; and every alert has unit tests (promtool, in CI)
 * where it fires and where it does not.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

interface Rule {
  readonly alert: string;
  readonly labels?: { readonly severity?: string };
  readonly annotations?: { readonly summary?: string; readonly runbook_url?: string };
}
interface RuleTest {
  readonly alert_rule_test: ReadonlyArray<{ alertname: string; exp_alerts: readonly unknown[] }>;
}

const rules = (
  parse(read('deploy/prometheus/alerts.yml')) as { groups: Array<{ rules: Rule[] }> }
).groups.flatMap((group) => group.rules);
const tests = (
  parse(read('deploy/prometheus/alerts.test.yml')) as { tests: RuleTest[] }
).tests.flatMap((test) => test.alert_rule_test);

/** GitHub's anchors of the headings of a markdown file. */
function anchors(markdown: string): Set<string> {
  return new Set(
    [...markdown.matchAll(/^#{1,6} (.+)$/gm)].map((m) =>
      m[1]!
        .toLowerCase()
        .replace(/[^\p{L}\p{N} -]/gu, '')
        .replace(/ /g, '-'),
    ),
  );
}

describe('alert rules', () => {
  const headings = anchors(read('docs/operations.md'));

  it.each(rules.map((rule) => [rule.alert, rule] as const))(
    '%s has a summary, a severity and a runbook section that exists',
    (_name, rule) => {
      expect(rule.annotations?.summary).toMatch(/\S/);
      expect(['critical', 'warning']).toContain(rule.labels?.severity);
      const [path, anchor] = (rule.annotations?.runbook_url ?? '').split('#');
      expect(path).toBe('docs/operations.md');
      expect([...headings]).toContain(anchor);
    },
  );

  it.each(rules.map((rule) => [rule.alert] as const))(
    '%s is unit-tested firing and not firing',
    (name) => {
      const own = tests.filter((t) => t.alertname === name);
      expect(own.some((t) => t.exp_alerts.length > 0)).toBe(true);
      expect(own.some((t) => t.exp_alerts.length === 0)).toBe(true);
    },
  );
});
