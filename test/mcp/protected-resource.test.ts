/**
 * The RFC 9728 metadata and the 401 challenge of /mcp name the app's address: CLAIMS_PUBLIC_URL,
 * else a validated Host, https only behind a proxy the operator trusts (CLAIMS_TRUST_PROXY).
 * Requests go out with node:http, which sends any Host header as given (fetch would not).
 */
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { harnessFor } from '../e2e/e2e-helpers.js';

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

function send(
  appUrl: string,
  method: 'GET' | 'POST',
  path: string,
  headers: Record<string, string>,
): Promise<Answer> {
  const url = new URL(path, appUrl);
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(
      method === 'POST' ? JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) : '',
    );
  });
}

const METADATA = '/.well-known/oauth-protected-resource';
const MCP_POST = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};

describe.concurrent('the protected-resource document and the challenge of /mcp', () => {
  it('a quote in the Host adds no parameter to WWW-Authenticate and names no resource', async ({
    onTestFinished,
  }) => {
    const { appUrl } = await harnessFor(onTestFinished);
    const evil = 'x" , realm="evil';
    const challenge = await send(appUrl, 'POST', '/mcp', { ...MCP_POST, host: evil });
    expect(challenge.status).toBe(401);
    expect(challenge.headers['www-authenticate']).toBe('Bearer');
    const metadata = await send(appUrl, 'GET', METADATA, { host: evil });
    expect(metadata.status).toBe(400);
    expect(metadata.body).not.toContain('evil');
  });

  it('without CLAIMS_PUBLIC_URL: the Host over http, X-Forwarded-Proto ignored unless trusted', async ({
    onTestFinished,
  }) => {
    const { appUrl } = await harnessFor(onTestFinished);
    const headers = { host: 'claims.example.com:8443', 'x-forwarded-proto': 'https' };
    const metadata = await send(appUrl, 'GET', METADATA, headers);
    expect(metadata.status).toBe(200);
    expect(JSON.parse(metadata.body).resource).toBe('http://claims.example.com:8443/mcp');
    const challenge = await send(appUrl, 'POST', '/mcp', { ...MCP_POST, ...headers });
    expect(challenge.headers['www-authenticate']).toBe(
      `Bearer resource_metadata="http://claims.example.com:8443${METADATA}"`,
    );
  });

  it('behind a trusted proxy (CLAIMS_TRUST_PROXY=true) X-Forwarded-Proto makes it https', async ({
    onTestFinished,
  }) => {
    const { appUrl } = await harnessFor(onTestFinished, { env: { CLAIMS_TRUST_PROXY: 'true' } });
    const metadata = await send(appUrl, 'GET', METADATA, {
      host: 'claims.example.com',
      'x-forwarded-proto': 'https',
    });
    expect(JSON.parse(metadata.body).resource).toBe('https://claims.example.com/mcp');
  });

  it('CLAIMS_PUBLIC_URL wins over any Host and X-Forwarded-Proto', async ({ onTestFinished }) => {
    const { appUrl } = await harnessFor(onTestFinished, {
      env: { CLAIMS_PUBLIC_URL: 'https://claims.example.com/warden', CLAIMS_TRUST_PROXY: 'true' },
    });
    const headers = { host: 'x" , realm="evil', 'x-forwarded-proto': 'http' };
    const metadata = await send(appUrl, 'GET', METADATA, headers);
    expect(JSON.parse(metadata.body).resource).toBe('https://claims.example.com/warden/mcp');
    const challenge = await send(appUrl, 'POST', '/mcp', { ...MCP_POST, ...headers });
    expect(challenge.headers['www-authenticate']).toBe(
      `Bearer resource_metadata="https://claims.example.com/warden${METADATA}"`,
    );
  });
});
