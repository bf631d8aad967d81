/**
 * Traces end to end (docs/operations.md "Traces"): two replicas, each a process of its own
 * started as the image starts it (the instrumentation loaded first), on one Redis, exporting
 * to an in-process OTLP/HTTP receiver. A delivery taken by one replica and reconciled by the
 * other makes one trace: the webhook, its queue wait, the reconcile, each GitHub request and
 * each write, with the delivery id, issue and installation as attributes.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { callApi, claimBody, claimPath } from '../api/api-helpers.js';
import { freePort, waitFor } from '../helpers/app-harness.js';
import { callTool, claimArgs, mcpClient } from '../mcp/mcp-helpers.js';
import {
  type Cluster,
  claim,
  createdDeliveries,
  INSTALLATION_ID,
  REPO,
  startCluster,
} from '../replicas/harness.js';
import { type OtlpReceiver, SPAN_KIND_SERVER, startOtlpReceiver } from './otlp-receiver.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MAIN = fileURLToPath(new URL('../../src/app/main.ts', import.meta.url));
const INSTRUMENT = fileURLToPath(new URL('../../src/telemetry/instrument.ts', import.meta.url));

let cluster: Cluster | undefined;
let receiver: OtlpReceiver | undefined;
const children: ChildProcess[] = [];
/** Stops a replica as an orchestrator does (SIGTERM): it flushes its spans as it stops. */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((done) => child.once('exit', done));
  child.kill('SIGTERM');
  await exited;
}

afterEach(async () => {
  for (const child of children.splice(0)) await stop(child);
  await cluster?.close();
  await receiver?.close();
});

/** A replica as the image starts it: `node --import <instrument> <main>`, traces on. */
async function tracedReplica(env: Record<string, string>): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', '--import', INSTRUMENT, MAIN], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'ignore', process.env.TEST_LOG_LEVEL ? 'inherit' : 'ignore'],
  });
  children.push(child);
  const url = `http://127.0.0.1:${env.PORT}`;
  let healthy = false;
  const deadline = Date.now() + 60_000;
  while (!healthy) {
    if (child.exitCode !== null) throw new Error('a replica exited during start-up');
    if (Date.now() > deadline) throw new Error('a replica did not become healthy');
    healthy = await fetch(`${url}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (!healthy) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return `${url}/api/github/webhooks`;
}

describe('traces', () => {
  it('one delivery is one trace across the replica that took it and the one that ran it', async () => {
    receiver = await startOtlpReceiver();
    cluster = await startCluster({
      seed: (fake) => fake.addInstallation({ id: 99, account: 'other', repos: ['other/gadgets'] }),
    });
    const { fake } = cluster;
    const traced = async (extra: Record<string, string> = {}) =>
      tracedReplica(
        cluster!.env(await freePort(), {
          OTEL_EXPORTER_OTLP_ENDPOINT: receiver!.url,
          // Spans leave within 50 ms, not the SDK's 5 s.
          OTEL_BSP_SCHEDULE_DELAY: '50',
          ...extra,
        }),
      );
    // Replica a runs one reconcile at a time, and is kept busy with another installation's
    // issue, whose GitHub reads wait: the delivery it takes can only run on replica b.
    const taker = await traced({ CLAIMS_QUEUE_CONCURRENCY: '1' });
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const busy = fake.inject({
      path: /^\/repos\/other\/gadgets\//,
      times: Infinity,
      hold: () => held,
    });
    const other = fake.createIssue('other/gadgets');
    const { id: otherId } = fake.addComment('other/gadgets', other, {
      author: 'alice',
      body: claim('s-0'),
    });
    await cluster.send(createdDeliveries(fake, [otherId])[0]!, { webhookUrl: taker } as never);
    await waitFor(() => busy.hits > 0, 'replica a to be busy');
    await traced();

    const n = fake.createIssue(REPO);
    const { id } = fake.addComment(REPO, n, { author: 'alice', body: claim('s-1') });
    const [delivery] = createdDeliveries(fake, [id]);
    expect(await cluster.send(delivery!, { webhookUrl: taker } as never)).toBe(200);
    await waitFor(
      () => (fake.issue(REPO, n)?.assignees ?? []).includes('alice'),
      'the claim to be enforced',
    );
    const spans = receiver.spans;
    const webhook = () =>
      spans.find(
        (s) => s.name.startsWith('webhook') && s.attributes['claims.delivery_id'] === delivery!.id,
      );
    await waitFor(() => webhook() !== undefined, 'the webhook span');
    const traceId = webhook()!.traceId;
    const inTrace = () => spans.filter((s) => s.traceId === traceId);
    await waitFor(
      () =>
        inTrace().some((s) => s.name === 'reconcile') &&
        inTrace().some((s) => s.name.startsWith('GitHub write')),
      'the reconcile’s writes to be exported',
    );
    release();

    const names = inTrace().map((s) => s.name);
    if (process.env.TEST_LOG_LEVEL) console.log(names);
    expect(names).toContain('webhook issue_comment');
    expect(names).toContain('queue wait');
    expect(names).toContain('reconcile');
    expect(names).toContain(`GitHub GET /repos/{owner}/{repo}/issues/{issue_number}/comments`);
    expect(names.filter((name) => name.startsWith('GitHub write')).length).toBeGreaterThan(0);
    // Redis commands, from the ioredis instrumentation, inside the reconcile.
    expect(inTrace().some((s) => Object.keys(s.attributes).some((k) => k.startsWith('db.')))).toBe(
      true,
    );
    // The webhook span is the incoming request's server span and the trace's root.
    expect(webhook()!.parentSpanId).toBeUndefined();
    expect(webhook()!.kind).toBe(SPAN_KIND_SERVER);

    // Across replicas: the webhook on a, everything from the queue wait on on b.
    const instance = (name: string) =>
      inTrace().find((s) => s.name === name)!.resource['service.instance.id'];
    expect(instance('reconcile')).not.toBe(instance('webhook issue_comment'));
    expect(instance('queue wait')).toBe(instance('reconcile'));

    const issue = `acme/widgets#${n}`;
    expect(webhook()!.attributes).toMatchObject({
      'claims.installation': INSTALLATION_ID,
      'claims.issue': issue,
    });
    const reconcile = inTrace().find((s) => s.name === 'reconcile')!;
    expect(reconcile.attributes).toMatchObject({ 'claims.installation': INSTALLATION_ID });
    expect(String(reconcile.attributes['claims.issue'])).toContain(`#${n}`);
  });

  it('the sampler decides per delivery: a delivery left out leaves no span, its reconcile none either', async () => {
    receiver = await startOtlpReceiver();
    cluster = await startCluster();
    const { fake } = cluster;
    const webhookUrl = await tracedReplica(
      cluster.env(await freePort(), {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '0.5',
      }),
    );
    // Twenty claims on twenty issues: at one in two, some are traced and some are not (the
    // chance that all or none are is two in a million).
    const issues = Array.from({ length: 20 }, () => fake.createIssue(REPO));
    const ids = issues.map(
      (n, i) => fake.addComment(REPO, n, { author: 'alice', body: claim(`s-${i}`) }).id,
    );
    for (const delivery of createdDeliveries(fake, ids))
      expect(await cluster.send(delivery, { webhookUrl } as never)).toBe(200);
    await waitFor(
      () => issues.every((n) => (fake.issue(REPO, n)?.assignees ?? []).includes('alice')),
      'every claim to be enforced',
    );
    await stop(children.at(-1)!);

    const traceIds = (name: string) =>
      new Set(receiver!.spans.filter((s) => s.name.startsWith(name)).map((s) => s.traceId));
    const webhooks = traceIds('webhook');
    expect(webhooks.size).toBeGreaterThan(0);
    expect(webhooks.size).toBeLessThan(issues.length);
    // A traced delivery's reconcile is in its trace; a delivery left out has none exported: a
    // reconcile that starts a trace of its own is the start-up resync's, which no delivery asked for.
    const reconciles = receiver.spans.filter((s) => s.name === 'reconcile');
    expect(reconciles.filter((s) => webhooks.has(s.traceId)).length).toBe(webhooks.size);
    const roots = reconciles.filter((s) => s.parentSpanId === undefined);
    expect(roots.map((s) => s.attributes['claims.reason'])).toEqual(roots.map(() => 'resync'));
  });

  it('an API call and an MCP tool call each join the caller’s trace, their GitHub requests inside', async () => {
    receiver = await startOtlpReceiver();
    cluster = await startCluster();
    const { fake } = cluster;
    const port = await freePort();
    await tracedReplica(
      cluster.env(port, {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_BSP_SCHEDULE_DELAY: '50',
      }),
    );
    const appUrl = `http://127.0.0.1:${port}`;
    const token = fake.tokenFor('alice');
    // The callers' own traces: W3C trace context, as an agent's HTTP client sends it.
    const rest = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7' };
    const mcp = { traceId: '5cf92f3577b34da6a3ce929d0e0e4737', spanId: '11f067aa0ba902b8' };
    const traceparent = (t: typeof rest) => `00-${t.traceId}-${t.spanId}-01`;

    const first = fake.createIssue(REPO);
    const answer = await callApi(appUrl, 'POST', claimPath(first), {
      token,
      body: claimBody('s-rest'),
      headers: { traceparent: traceparent(rest) },
    });
    expect(answer.status).toBe(201);
    const second = fake.createIssue(REPO);
    const client = await mcpClient(appUrl, token, 'traced-agent', {
      traceparent: traceparent(mcp),
    });
    try {
      const result = await callTool(client, 'issue_claim', claimArgs(second, 's-mcp'));
      expect(result.isError ?? false).toBe(false);
    } finally {
      await client.close();
    }

    const inTrace = (traceId: string) => receiver!.spans.filter((s) => s.traceId === traceId);
    const exported = (traceId: string, name: string) =>
      inTrace(traceId).some((s) => s.name === name) &&
      inTrace(traceId).some((s) => s.name.startsWith('GitHub write'));
    const claimRoute = 'POST /repos/{owner}/{repo}/issues/{id}/claim';
    await waitFor(() => exported(rest.traceId, `claims API ${claimRoute}`), 'the API call’s spans');
    await waitFor(() => exported(mcp.traceId, 'MCP tool issue_claim'), 'the tool call’s spans');

    // REST: the request's server span is the caller's span's child.
    const api = inTrace(rest.traceId).find((s) => s.name === `claims API ${claimRoute}`)!;
    expect(api).toMatchObject({ kind: SPAN_KIND_SERVER, parentSpanId: rest.spanId });
    expect(api.attributes).toMatchObject({ 'claims.surface': 'rest' });
    // MCP: the tool call inside the server span of the HTTP request that carried it, which is
    // the caller's span's child; the claim's comment written inside the tool call's span.
    const tool = inTrace(mcp.traceId).find((s) => s.name === 'MCP tool issue_claim')!;
    const request = inTrace(mcp.traceId).find((s) => s.spanId === tool.parentSpanId);
    expect(request).toMatchObject({
      name: 'MCP POST /mcp',
      kind: SPAN_KIND_SERVER,
      parentSpanId: mcp.spanId,
    });
    expect(tool.attributes).toMatchObject({
      'claims.surface': 'mcp',
      'claims.tool': 'issue_claim',
    });
    const under = (ancestor: string, traceId: string) => {
      const byId = new Map(inTrace(traceId).map((s) => [s.spanId, s]));
      return inTrace(traceId).filter((s) => {
        for (let at = s.parentSpanId; at !== undefined; at = byId.get(at)?.parentSpanId)
          if (at === ancestor) return true;
        return false;
      });
    };
    for (const [root, traceId] of [
      [api.spanId, rest.traceId],
      [tool.spanId, mcp.traceId],
    ] as const) {
      const names = under(root, traceId).map((s) => s.name);
      expect(names).toContain(
        'GitHub write POST /repos/{owner}/{repo}/issues/{issue_number}/comments',
      );
    }
  });
});
