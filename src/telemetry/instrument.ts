/**
 * Loaded before the app (`node --import`), so that the HTTP and ioredis instrumentations
 * patch those modules as the app loads them. Without `OTEL_EXPORTER_OTLP_ENDPOINT` it loads
 * nothing else.
 */
import { startTracing } from './start-tracing.js';

await startTracing(process.env);
