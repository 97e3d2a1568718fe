// Traces of the server's requests, exported with OpenTelemetry (OTLP over HTTP, JSON) when an
// exporter is configured (OTEL_EXPORTER_OTLP_ENDPOINT), a sample of them (SPEC §9: 0.8;
// OTEL_TRACES_SAMPLER_ARG changes it). A span per request, named by its method and route pattern
// (`GET /entity/:id`), with the status code; no query string, body, header or user in it.
import { SpanKind, SpanStatusCode, type Span } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider, ParentBasedSampler, TraceIdRatioBasedSampler } from '@opentelemetry/sdk-trace-node';
import type { FastifyInstance } from 'fastify';

/** SPEC §9: the share of requests traced. */
export const DEFAULT_TRACE_SAMPLE_RATE = 0.8;

export interface TracingConfig {
  /** OTLP/HTTP traces endpoint (`…/v1/traces`). */
  endpoint: string;
  sampleRate: number;
}

declare module 'fastify' {
  interface FastifyRequest { traceSpan?: Span }
}

/** Starts the exporter and traces every request of `app`; its buffered spans are sent when the app closes. */
export function traceRequests(app: FastifyInstance, config: TracingConfig): void {
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'terrasight' }),
    sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(config.sampleRate) }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: config.endpoint }))],
  });
  const tracer = provider.getTracer('terrasight');
  app.addHook('onRequest', async (request) => {
    const route = request.routeOptions.url ?? 'unmatched';
    request.traceSpan = tracer.startSpan(`${request.method} ${route}`, {
      kind: SpanKind.SERVER,
      attributes: { 'http.request.method': request.method, 'http.route': route, 'url.path': request.url.split('?')[0] },
    });
  });
  app.addHook('onResponse', async (request, reply) => {
    const span = request.traceSpan;
    if (!span) return;
    span.setAttribute('http.response.status_code', reply.statusCode);
    if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  });
  app.addHook('onClose', async () => {
    await provider.shutdown(); // flushes what is buffered
  });
}

/** The traces endpoint from the standard variables: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as it is, or OTEL_EXPORTER_OTLP_ENDPOINT + /v1/traces. */
export function tracesEndpointFrom(env: NodeJS.ProcessEnv): string | undefined {
  if (env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  if (env.OTEL_EXPORTER_OTLP_ENDPOINT) return `${env.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '')}/v1/traces`;
  return undefined;
}

