// The entry of dist/telemetry.js, the editor's separately loaded OpenTelemetry bundle (see src/extension/traceStreaming.ts).
export { startOtlpStreaming } from './otlpExporter';
export { toOtlpJson } from './otlpFile';
