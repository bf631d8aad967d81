import {
  type Attributes,
  type Context,
  context,
  isSpanContextValid,
  type Link,
  propagation,
  ROOT_CONTEXT,
  type Span,
  type SpanContext,
  SpanKind,
  SpanStatusCode,
  TraceFlags,
  type Tracer,
  trace,
} from '@opentelemetry/api';

/**
 * The app's spans (docs/operations.md "Traces"). Off unless start-tracing.ts turned them on:
 * then every function here runs what it wraps and nothing else, no OpenTelemetry call made.
 */
let on = false;

/** Turns the spans on; start-tracing.ts calls it once the SDK is registered. */
export function enableSpans(): void {
  on = true;
}

/** Whether traces are on (`OTEL_EXPORTER_OTLP_ENDPOINT` set). */
export function tracingOn(): boolean {
  return on;
}

/**
 * Whether the active span records: false when traces are off, outside any span, or in a trace
 * the sampler left out, where a child span would record nothing either.
 */
export function inRecordingSpan(): boolean {
  return on && trace.getActiveSpan()?.isRecording() === true;
}

let tracerOnce: Tracer | undefined;
/** The app's tracer, looked up once (a lookup per span costs a provider call and a map key). */
const tracer = (): Tracer => {
  tracerOnce ??= trace.getTracer('claim-warden');
  return tracerOnce;
};

/** What {@link inSpan} starts the span with. */
interface SpanOptions {
  readonly attributes?: Attributes;
  readonly kind?: SpanKind;
  readonly links?: Link[];
  /** The parent; default the active context. */
  readonly parent?: Context;
  /**
   * An incoming request's headers: the parent is the trace their `traceparent` names, else
   * none (the span is a trace's root). Read only when traces are on.
   */
  readonly headers?: Readonly<Record<string, string | string[] | undefined>>;
}

/**
 * Runs `fn` in a span named `name`, active for what `fn` calls (GitHub requests, Redis
 * commands); an error thrown is recorded on the span and thrown on.
 */
export async function inSpan<T>(
  name: string,
  options: SpanOptions,
  fn: (span: Span | undefined) => Promise<T>,
): Promise<T> {
  if (!on) return fn(undefined);
  const parent =
    options.parent ??
    (options.headers ? propagation.extract(ROOT_CONTEXT, options.headers) : context.active());
  return tracer().startActiveSpan(
    name,
    {
      kind: options.kind ?? SpanKind.INTERNAL,
      ...(options.attributes ? { attributes: options.attributes } : {}),
      ...(options.links ? { links: options.links } : {}),
    },
    parent,
    async (span) => {
      try {
        return await fn(span);
      } catch (error) {
        span.recordException(error instanceof Error ? error : String(error));
        span.setStatus({ code: SpanStatusCode.ERROR });
        throw error;
      } finally {
        span.end();
      }
    },
  );
}

/**
 * What a queued request carries when its delivery's trace was left out by the sampler
 * (`OTEL_TRACES_SAMPLER`): its reconcile records nothing either, rather than start a trace of
 * its own that would be sampled apart from its delivery's.
 */
const UNSAMPLED = '-';

/**
 * The active trace as a queued request carries it to whichever replica runs it:
 * `<traceparent> <queued at, Unix ms>` (W3C trace context, written and read here: the
 * propagation API's inject and extract took several µs a request in profiles), UNSAMPLED when
 * the sampler left the trace out; undefined when traces are off or nothing is traced.
 */
export function traceCarrier(): string | undefined {
  if (!on) return undefined;
  const active = trace.getActiveSpan()?.spanContext();
  if (!active || !isSpanContextValid(active)) return undefined;
  if ((active.traceFlags & TraceFlags.SAMPLED) === 0) return UNSAMPLED;
  return `00-${active.traceId}-${active.spanId}-01 ${Date.now()}`;
}

/** A carrier read back: the context it names and when its request was queued. */
interface Carried {
  readonly context: Context;
  readonly spanContext: SpanContext;
  readonly queuedAt: number;
}

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

function carried(carrier: string): Carried | null {
  const [traceparent = '', at] = carrier.split(' ');
  const parts = TRACEPARENT.exec(traceparent);
  const queuedAt = Number(at);
  if (!parts || !Number.isFinite(queuedAt)) return null;
  const spanContext: SpanContext = {
    traceId: parts[1]!,
    spanId: parts[2]!,
    traceFlags: Number.parseInt(parts[3]!, 16),
    isRemote: true,
  };
  if (!isSpanContextValid(spanContext)) return null;
  return { context: trace.setSpanContext(ROOT_CONTEXT, spanContext), spanContext, queuedAt };
}

/**
 * Runs a queued request's work in its delivery's trace: a `queue wait` span per request it
 * serves (from being queued to now, in that request's trace), then `name` as a child of the
 * first request's trace, linked to the others' (requests for one issue coalesce into one run).
 */
export async function inQueuedSpan<T>(
  name: string,
  carriers: readonly string[] | undefined,
  attributes: Attributes,
  fn: () => Promise<T>,
): Promise<T> {
  if (!on) return fn();
  const requests = (carriers ?? []).flatMap((c) => carried(c) ?? []);
  // Every request it serves came from a delivery the sampler left out.
  if (requests.length === 0 && carriers?.includes(UNSAMPLED)) return fn();
  const now = Date.now();
  for (const request of requests)
    tracer()
      .startSpan('queue wait', { startTime: request.queuedAt, attributes }, request.context)
      .end(now);
  const [first, ...others] = requests;
  const links = others.map((r) => ({ context: r.spanContext }));
  return inSpan(name, { attributes, links, parent: first?.context ?? ROOT_CONTEXT }, fn);
}

export { ROOT_CONTEXT, SpanKind };
