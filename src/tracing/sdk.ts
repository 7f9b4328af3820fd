// The OpenTelemetry SDK, loaded only when tracing is on (start.ts): a tracer provider for this thread,
// its spans batched and sent over OTLP/HTTP as the settings (the OTEL_* variables) say.
import { type DiagLogger, DiagLogLevel, diag } from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  NodeTracerProvider,
  ParentBasedSampler,
  type Sampler,
  type SpanExporter,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace-node';
import type { TracingSettings } from '../config/types.js';

export interface Provider {
  /** Sends what is batched and stops. */
  shutdown(): Promise<void>;
}

/**
 * Registers this thread's tracer provider: the W3C Trace Context propagator and the context manager of
 * async calls come with it (NodeTracerProvider.register). The SDK's own complaints (an export refused or
 * unreachable) go to the bot's log.
 */
export async function registerProvider(
  settings: TracingSettings,
  log: { warn(o: object, msg: string): void },
): Promise<Provider> {
  diag.setLogger(diagTo(log), DiagLogLevel.WARN);
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ ...settings.resource, 'service.name': settings.serviceName }),
    sampler: samplerOf(settings),
    spanProcessors: [new BatchSpanProcessor(await exporterOf(settings))],
  });
  provider.register();
  return provider;
}

async function exporterOf(s: TracingSettings): Promise<SpanExporter> {
  const config = { url: s.url, headers: s.headers };
  if (s.protocol === 'http/json')
    return new (await import('@opentelemetry/exporter-trace-otlp-http')).OTLPTraceExporter(config);
  return new (await import('@opentelemetry/exporter-trace-otlp-proto')).OTLPTraceExporter(config);
}

function samplerOf(s: TracingSettings): Sampler {
  const ratio = () => new TraceIdRatioBasedSampler(s.ratio);
  switch (s.sampler) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return ratio();
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: ratio() });
  }
}

function diagTo(log: { warn(o: object, msg: string): void }): DiagLogger {
  const warn = (message: string, ...args: unknown[]) =>
    log.warn(
      { part: 'tracing', detail: args.map((a) => (a instanceof Error ? a.message : String(a))) },
      message,
    );
  const quiet = () => {};
  return { error: warn, warn, info: quiet, debug: quiet, verbose: quiet };
}
