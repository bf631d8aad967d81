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
 * OpenTelemetry SDK exporting over OTLP/HTTP, with the HTTP and ioredis instrumentations and
 * the app's own spans (tracing.ts). Unset, it loads nothing of the SDK and resolves null.
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
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url }))],
  });
  // The W3C trace context propagator and an AsyncLocalStorage context manager.
  provider.register();
  await instrument();
  enableSpans();
  return { flush: () => provider.forceFlush() };
}

/**
 * Incoming and outgoing HTTP, and Redis commands. They patch modules as they are loaded:
 * loaded first (`node --import <dist>/src/telemetry/instrument.js`, as the image starts),
 * ioredis and http are patched; started from main alone, only the app's own spans are made.
 */
async function instrument(): Promise<void> {
  // ES modules are patched through import-in-the-middle's loader hook (require hooks see
  // CommonJS only); registered here, it applies to the modules imported after it.
  const { register } = await import('node:module');
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url);
  const [{ registerInstrumentations }, { HttpInstrumentation }, { IORedisInstrumentation }] =
    await Promise.all([
      import('@opentelemetry/instrumentation'),
      import('@opentelemetry/instrumentation-http'),
      import('@opentelemetry/instrumentation-ioredis'),
    ]);
  registerInstrumentations({
    instrumentations: [
      // Probes are not worth a trace each.
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req) => req.url === '/health' || req.url === '/metrics',
      }),
      new IORedisInstrumentation({ requireParentSpan: true }),
    ],
  });
}

/** The OTLP/HTTP traces URL the standard variables name, or undefined when traces are off. */
function tracesUrl(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  if (traces) return traces;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!base) return undefined;
  return `${base.replace(/\/+$/, '')}/v1/traces`;
}
