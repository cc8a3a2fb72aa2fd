import type { GatewayConfig } from '../../config.js';
import { interfaceVersion } from '../../shared/interface-version.js';
import type { OtlpExportSettings } from './otlp-export.js';

/**
 * The exporter's settings from the standard OpenTelemetry variables: the traces-specific ones win over the general
 * ones, and the general endpoint gets `/v1/traces` appended as the OTLP/HTTP specification says. Null when nothing
 * asks for an export.
 */
export function otlpSettingsOf(config: GatewayConfig): OtlpExportSettings | null {
  if (config.OTEL_TRACES_EXPORTER === 'none') return null;
  const url =
    config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ??
    (config.OTEL_EXPORTER_OTLP_ENDPOINT ? `${config.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '')}/v1/traces` : null);
  if (!url) return null;
  return {
    url,
    protocol: config.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? config.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'http/protobuf',
    headers: { ...config.OTEL_EXPORTER_OTLP_HEADERS, ...config.OTEL_EXPORTER_OTLP_TRACES_HEADERS },
    serviceName: config.OTEL_SERVICE_NAME,
    serviceVersion: interfaceVersion,
  };
}
