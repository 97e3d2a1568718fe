// Request traces' configuration (OpenTelemetry's own variables): none without an exporter, 0.8 by default (SPEC §9).
import { describe, expect, it } from 'vitest';
import { ConfigError, tracingFrom } from '../../../server/config.ts';

describe('tracing configuration', () => {
  it('is off without an exporter; samples 0.8 unless OTEL_TRACES_SAMPLER_ARG says otherwise', () => {
    expect(tracingFrom({})).toBeUndefined();
    expect(tracingFrom({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' })).toEqual({ endpoint: 'http://collector:4318/v1/traces', sampleRate: 0.8 });
    expect(tracingFrom({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://c.example/traces', OTEL_TRACES_SAMPLER_ARG: '0.1' })).toEqual({ endpoint: 'https://c.example/traces', sampleRate: 0.1 });
    expect(() => tracingFrom({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toThrow(ConfigError);
    expect(() => tracingFrom({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_SAMPLER_ARG: '2' })).toThrow(ConfigError);
  });
});
