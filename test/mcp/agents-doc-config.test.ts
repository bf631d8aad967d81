/**
 * docs/agents.md's remote MCP configuration, verbatim: the test reads the snippet
 * from the doc, puts the running app's address in place of the example host and a token in the
 * environment, and connects with the SDK's Streamable HTTP client as the snippet says.
 */
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { harnessFor } from '../e2e/e2e-helpers.js';
import { REPO } from '../helpers/app-harness.js';

const DOC = new URL('../../docs/agents.md', import.meta.url);

/** The JSON block after `<!-- remote-mcp-config -->` in docs/agents.md. */
function remoteSnippet(): string {
  const doc = readFileSync(DOC, 'utf8');
  const match = /<!-- remote-mcp-config -->\n```json\n([\s\S]*?)\n```/.exec(doc);
  if (!match) throw new Error('docs/agents.md has no remote MCP configuration snippet');
  return match[1]!;
}

/** `${NAME}` replaced from `env`, as agents' MCP configurations expand them. */
function expand(text: string, env: Record<string, string>): string {
  return text.replace(/\$\{([A-Z_]+)\}/g, (_, name: string) => env[name] ?? '');
}

describe('docs/agents.md: the remote MCP configuration', () => {
  it('connects to the app as written and claims an issue through it', async ({
    onTestFinished,
  }) => {
    const { fake, appUrl } = await harnessFor(onTestFinished);
    const n = fake.createIssue(REPO);
    const config = JSON.parse(remoteSnippet()) as {
      mcpServers: Record<string, { type: string; url: string; headers: Record<string, string> }>;
    };
    const server = config.mcpServers['claim-warden']!;
    expect(server.type).toBe('http');
    const url = server.url.replace('https://claims.example.com', appUrl);
    expect(url).toBe(`${appUrl}/mcp`);
    const headers = Object.fromEntries(
      Object.entries(server.headers).map(([k, v]) => [
        k,
        expand(v, { GITHUB_TOKEN: fake.tokenFor('alice') }),
      ]),
    );
    const client = new Client({ name: 'claude-code', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }),
    );
    onTestFinished(() => client.close());
    const result = await client.callTool({
      name: 'issue_claim',
      arguments: { issue: `${REPO}#${n}`, session: 's-doc', lane: 'l', branch: 'feat/doc' },
    });
    expect(result.isError).toBeFalsy();
    expect(fake.comments(REPO, n).find((c) => c.user.login === 'alice')?.body).toContain(
      'Via: claude-code',
    );
  });
});
