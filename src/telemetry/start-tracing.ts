import { randomUUID } from 'node:crypto';
import { enableSpans } from '../tracing/tracing.js';

/** What a started tracer provider offers the app. */
interface Tracing {
  /** Sends the spans still buffered; the app calls it as it stops. */
  flush(): Promise<void>;
}

let started: Promise<Tracing | null> | undefined;

/**
 * Turns traces on when `OTEL_EXPORTER_OTLP_ENDPOINT` (or `_TRACES_ENDPOINT`) is set: the
 * OpenTelemetry SDK exporting over OTLP/HTTP, with the ioredis instrumentation and the app's
 * own spans (tracing.ts). Unset, it loads nothing of the SDK and resolves null.
 * Once per process: a second call gets the first one's answer (tests start several apps).
 * The other `OTEL_*` variables (headers, sampler, batch delays) are the SDK's to read.
 */
export function startTracing(
  env: Readonly<Record<string, string | undefined>>,
): Promise<Tracing | null> {
  started ??= start(env);
  return started;
}

async function start(env: Readonly<Record<string, string | undefined>>): Promise<Tracing | null> {
  const url = tracesUrl(env);
  if (url === undefined) return null;
  const [
    { NodeTracerProvider, BatchSpanProcessor },
    { OTLPTraceExporter },
    { resourceFromAttributes },
  ] = await Promise.all([
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
  ]);
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({
      'service.name': env.OTEL_SERVICE_NAME || 'claim-warden',
      // Tells the replicas of one trace apart.
      'service.instance.id': randomUUID(),
    }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url }), batching(env))],
  });
  // The W3C trace context propagator and an AsyncLocalStorage context manager.
  provider.register();
  await instrument();
  enableSpans();
  return { flush: () => provider.forceFlush() };
}

/**
 * Redis commands. The instrumentation patches ioredis as it is loaded: loaded first
 * (`node --import <dist>/src/telemetry/instrument.js`, as the image starts), ioredis is
 * patched; started from main alone, only the app's own spans are made. No HTTP
 * instrumentation: the webhook span is the delivery's server span and the trace's root
 * (webhook-intake.ts), the claims API's span its request's (observe-api.ts), and GitHub's
 * requests go through fetch, each with its `GitHub …` span (trace-calls.ts). Its span per
 * incoming request, with a context bound to the request and the response, cost more CPU a
 * delivery than the rest of the trace (docs/measured.md).
 */
async function instrument(): Promise<void> {
  // ES modules are patched through import-in-the-middle's loader hook (require hooks see
  // CommonJS only); registered here, it applies to the modules imported after it. Only ioredis
  // is wrapped: without the list, every module the app loads went through the wrapper.
  const { register } = await import('node:module');
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url, {
    data: { include: ['ioredis'] },
  });
  const [{ registerInstrumentations }, { IORedisInstrumentation }] = await Promise.all([
    import('@opentelemetry/instrumentation'),
    import('@opentelemetry/instrumentation-ioredis'),
  ]);
  registerInstrumentations({
    instrumentations: [new IORedisInstrumentation({ requireParentSpan: true })],
  });
}

/**
 * The batch span processor's sizes: the SDK's `OTEL_BSP_*` variables when set, else batches
 * of 2,048 spans (one export carries a few hundred deliveries, not 512 spans at a time) from
 * a queue of 16,384 (at 1,000 deliveries a second of four or five spans each, the SDK's
 * default 2,048 would drop spans between two 5 s exports).
 */
function batching(env: Readonly<Record<string, string | undefined>>): {
  maxQueueSize: number;
  maxExportBatchSize: number;
} {
  const number = (name: string, fallback: number) => {
    const value = Number(env[name]);
    return env[name] && Number.isFinite(value) && value > 0 ? value : fallback;
  };
  return {
    maxQueueSize: number('OTEL_BSP_MAX_QUEUE_SIZE', 16_384),
    maxExportBatchSize: number('OTEL_BSP_MAX_EXPORT_BATCH_SIZE', 2048),
  };
}

/** The OTLP/HTTP traces URL the standard variables name, or undefined when traces are off. */
function tracesUrl(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  if (traces) return traces;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!base) return undefined;
  return `${base.replace(/\/+$/, '')}/v1/traces`;
}
