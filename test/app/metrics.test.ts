import { describe, expect, it } from 'vitest';
import { routeTemplate } from '../../src/telemetry/route-template.js';

describe('GitHub request metrics are labelled by route template', () => {
  it.each([
    ['/repos/{owner}/{repo}/issues/{issue_number}', '/repos/{owner}/{repo}/issues/{issue_number}'],
    [
      'http://127.0.0.1:4000/api/v3/repos/acme/widgets/issues/12/comments?per_page=100&page=2',
      '/repos/{owner}/{repo}/issues/{id}/comments',
    ],
    [
      'https://api.github.com/repos/acme/widgets/issues/comments?since=2026-11-30T00:00:00Z',
      '/repos/{owner}/{repo}/issues/comments',
    ],
    ['https://api.github.com/installation/repositories?per_page=100', '/installation/repositories'],
  ])('%s → %s', (url, route) => {
    expect(routeTemplate(url)).toBe(route);
  });
});
