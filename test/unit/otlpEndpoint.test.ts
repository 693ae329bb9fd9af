// Where live traces go: the given endpoint, else the OTEL_EXPORTER_OTLP_* variables, else nowhere.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { OtlpEndpointError, redactEndpoint, resolveOtlpTarget, tracesUrl } from '../../src/telemetry/otlpEndpoint';

describe('OTLP stream target', () => {
  it('adds /v1/traces to a base URL and keeps a traces URL as it is', () => {
    assert.equal(tracesUrl('http://127.0.0.1:4318'), 'http://127.0.0.1:4318/v1/traces');
    assert.equal(tracesUrl('https://otel.example/prefix/'), 'https://otel.example/prefix/v1/traces');
    assert.equal(tracesUrl('http://h:4318/v1/traces'), 'http://h:4318/v1/traces');
    assert.throws(() => tracesUrl('collector:4318'), OtlpEndpointError);
  });

  it('is off without an endpoint or variable, and with OTEL_SDK_DISABLED', () => {
    assert.equal(resolveOtlpTarget(undefined, {}), undefined);
    assert.equal(resolveOtlpTarget('  ', {}), undefined);
    assert.equal(resolveOtlpTarget(undefined, { OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://h:4318' }), undefined);
  });

  it('lets the given endpoint win, and leaves a variable endpoint to the exporter', () => {
    const given = resolveOtlpTarget('http://a:4318', { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://b:4318' });
    assert.equal(given?.url, 'http://a:4318/v1/traces');
    const fromEnv = resolveOtlpTarget(undefined, { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://b:4318/v1/traces' });
    assert.equal(fromEnv?.url, undefined);
    assert.match(fromEnv?.description ?? '', /OTEL_EXPORTER_OTLP_TRACES_ENDPOINT/);
    assert.throws(
      () => resolveOtlpTarget(undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: 'nope' }),
      /OTEL_EXPORTER_OTLP_ENDPOINT must be an http/,
    );
  });

  it('reads the protocol (signal-specific first), http/protobuf by default, and says when one is not supported', () => {
    assert.equal(resolveOtlpTarget('http://a', {})?.protocol, 'http/protobuf');
    assert.equal(resolveOtlpTarget('http://a', { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })?.protocol, 'http/json');
    assert.equal(
      resolveOtlpTarget('http://a', { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf' })
        ?.protocol,
      'http/protobuf',
    );
    const grpc = resolveOtlpTarget('http://a', { OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' });
    assert.equal(grpc?.protocol, 'http/protobuf');
    assert.match(grpc?.warnings[0] ?? '', /"grpc" is not supported/);
  });

  it('redacts user info and query values wherever an endpoint is shown, keeping the URL to the collector', () => {
    assert.equal(redactEndpoint('http://u:pw@h:4318/v1/traces?api_key=k&x=1'), 'http://***@h:4318/v1/traces?api_key=***&x=***');
    assert.equal(
      redactEndpoint('export failed: https://tok@otel.example/x (refused)'),
      'export failed: https://***@otel.example/x (refused)',
    );
    assert.equal(redactEndpoint('http://127.0.0.1:4318/v1/traces'), 'http://127.0.0.1:4318/v1/traces');
    const target = resolveOtlpTarget('http://u:pw@h/?api_key=k', {});
    assert.equal(target?.url, 'http://u:pw@h/v1/traces?api_key=k', 'the exporter still gets the credentials');
    assert.equal(target?.description, 'http://***@h/v1/traces?api_key=***');
    assert.throws(
      () => resolveOtlpTarget('ftp://u:pw@h/', {}),
      (error: Error) => !error.message.includes('pw'),
    );
  });
});
