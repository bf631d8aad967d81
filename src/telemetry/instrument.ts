/**
 * Loaded before the app (`node --import`), so that the ioredis instrumentation
 * patches ioredis as the app loads it. Without `OTEL_EXPORTER_OTLP_ENDPOINT` it loads
 * nothing else.
 */
import { startTracing } from './start-tracing.js';

await startTracing(process.env);
