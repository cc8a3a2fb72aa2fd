import { SpanKind, SpanStatusCode, type Tracer } from '@opentelemetry/api';
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import type { Logger } from '@gw/platform';
import type { SpendRecord } from '../spend-record.js';
import { genAiOperation, spanAttributes } from './span-attributes.js';

export interface OtlpExportSettings {
  /** The collector's traces URL (`…/v1/traces`). */
  url: string;
  protocol: 'http/protobuf' | 'http/json';
  headers: Record<string, string>;
  serviceName: string;
  serviceVersion: string;
}

/**
 * One span per metered call, exported over OTLP/HTTP (protobuf or JSON) by the OpenTelemetry SDK's batch processor: off the
 * request path, bounded in memory (spans beyond the queue are dropped, never waited for), so a slow or absent collector
 * never delays or fails a call. Spans are content-free whatever the content mode: the same facts as the spend row.
 */
export class OtlpSpanExport {
  private readonly provider: TracerProvider;
  private readonly tracer: Tracer;

  constructor(settings: OtlpExportSettings, logger: Logger) {
    const exporterOptions = { url: settings.url, headers: settings.headers, timeoutMillis: 10_000 };
    const exporter =
      settings.protocol === 'http/json'
        ? new JsonTraceExporter(exporterOptions)
        : new ProtobufTraceExporter(exporterOptions);
    this.provider = new TracerProvider({
      resource: resourceFromAttributes({
        'service.name': settings.serviceName,
        'service.version': settings.serviceVersion,
      }),
      spanProcessors: [
        new BatchSpanProcessor({
          exporter,
          maxQueueSize: 4_096,
          maxExportBatchSize: 512,
          scheduledDelayMillis: 1_000,
          exportTimeoutMillis: 10_000,
        }),
      ],
    });
    this.tracer = this.provider.getTracer('gw-gateway', settings.serviceVersion);
    logger.info(
      { url: redactUrl(settings.url), protocol: settings.protocol },
      'exporting a span per call over OTLP/HTTP',
    );
  }

  /** Record one call as a finished span; never throws. */
  export(record: SpendRecord): void {
    const end = Date.parse(record.ts);
    const endTime = Number.isFinite(end) ? end : Date.now();
    const span = this.tracer.startSpan(`${genAiOperation(record.endpoint)}${record.model ? ` ${record.model}` : ''}`, {
      kind: SpanKind.CLIENT,
      startTime: endTime - Math.max(0, record.latencyMs),
      attributes: spanAttributes(record),
    });
    if (record.outcome !== 'success')
      span.setStatus({ code: SpanStatusCode.ERROR, ...(record.errorCode ? { message: record.errorCode } : {}) });
    span.end(endTime);
  }

  /** Flush what is queued (bounded by the exporter's timeout) and stop. */
  async shutdown(): Promise<void> {
    await this.provider.shutdown();
  }

  async flush(): Promise<void> {
    await this.provider.forceFlush();
  }
}

/** A collector URL may carry credentials in its userinfo or query: log the origin and path only. */
function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return 'unparseable';
  }
}
