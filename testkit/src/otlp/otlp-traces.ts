import { bytesOf, double, fixed64, readFields, text } from './protobuf-reader.js';

/** One received span, the same shape whichever OTLP/HTTP encoding carried it. */
export interface ReceivedSpan {
  name: string;
  /** OTLP span kind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  startTimeUnixNano: bigint;
  endTimeUnixNano: bigint;
  attributes: Record<string, string | number | boolean>;
  /** OTLP status code: 0 unset, 1 ok, 2 error. */
  status: { code: number; message: string };
  resource: Record<string, string | number | boolean>;
}

type Scalar = string | number | boolean;

// opentelemetry/proto/common/v1/common.proto AnyValue: 1 string, 2 bool, 3 int64, 4 double.
function anyValue(bytes: Uint8Array): Scalar {
  for (const field of readFields(bytes)) {
    if (field.number === 1) return text(field.value);
    if (field.number === 2) return field.value === 1n;
    if (field.number === 3) return Number(BigInt.asIntN(64, field.value as bigint));
    if (field.number === 4) return double(field.value);
  }
  return '';
}

// KeyValue: 1 key, 2 value.
function keyValues(fields: ReturnType<typeof readFields>, number: number): Record<string, Scalar> {
  const attributes: Record<string, Scalar> = {};
  for (const field of fields.filter((candidate) => candidate.number === number)) {
    let key = '';
    let value: Scalar = '';
    for (const part of readFields(bytesOf(field.value))) {
      if (part.number === 1) key = text(part.value);
      if (part.number === 2) value = anyValue(bytesOf(part.value));
    }
    attributes[key] = value;
  }
  return attributes;
}

// trace.proto Span: 5 name, 6 kind, 7 start, 8 end (fixed64), 9 attributes, 15 status (2 message, 3 code).
function protobufSpan(bytes: Uint8Array, resource: Record<string, Scalar>): ReceivedSpan {
  const fields = readFields(bytes);
  const span: ReceivedSpan = {
    name: '',
    kind: 0,
    startTimeUnixNano: 0n,
    endTimeUnixNano: 0n,
    attributes: keyValues(fields, 9),
    status: { code: 0, message: '' },
    resource,
  };
  for (const field of fields) {
    if (field.number === 5) span.name = text(field.value);
    if (field.number === 6) span.kind = Number(field.value);
    if (field.number === 7) span.startTimeUnixNano = fixed64(field.value);
    if (field.number === 8) span.endTimeUnixNano = fixed64(field.value);
    if (field.number === 15) {
      for (const part of readFields(bytesOf(field.value))) {
        if (part.number === 2) span.status.message = text(part.value);
        if (part.number === 3) span.status.code = Number(part.value);
      }
    }
  }
  return span;
}

/** ExportTraceServiceRequest (1 resource_spans) → ResourceSpans (1 resource, 2 scope_spans) → ScopeSpans (2 spans). */
export function decodeProtobufTraces(bytes: Uint8Array): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  for (const resourceSpans of readFields(bytes).filter((field) => field.number === 1)) {
    const parts = readFields(bytesOf(resourceSpans.value));
    const resourceField = parts.find((field) => field.number === 1);
    const resource = resourceField ? keyValues(readFields(bytesOf(resourceField.value)), 1) : {};
    for (const scopeSpans of parts.filter((field) => field.number === 2)) {
      for (const span of readFields(bytesOf(scopeSpans.value)).filter((field) => field.number === 2))
        spans.push(protobufSpan(bytesOf(span.value), resource));
    }
  }
  return spans;
}

interface JsonKeyValue {
  key: string;
  value: { stringValue?: string; boolValue?: boolean; intValue?: number | string; doubleValue?: number };
}

function jsonAttributes(list: JsonKeyValue[] | undefined): Record<string, Scalar> {
  const attributes: Record<string, Scalar> = {};
  for (const { key, value } of list ?? []) {
    attributes[key] =
      value.stringValue ??
      value.boolValue ??
      (value.intValue !== undefined ? Number(value.intValue) : (value.doubleValue ?? ''));
  }
  return attributes;
}

interface JsonTraces {
  resourceSpans?: Array<{
    resource?: { attributes?: JsonKeyValue[] };
    scopeSpans?: Array<{
      spans?: Array<{
        name: string;
        kind: number;
        startTimeUnixNano: string | number;
        endTimeUnixNano: string | number;
        attributes?: JsonKeyValue[];
        status?: { code?: number; message?: string };
      }>;
    }>;
  }>;
}

/** The OTLP/JSON encoding of the same request (lowerCamelCase field names, 64-bit integers as strings). */
export function decodeJsonTraces(body: unknown): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  for (const resourceSpans of (body as JsonTraces).resourceSpans ?? []) {
    const resource = jsonAttributes(resourceSpans.resource?.attributes);
    for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
      for (const span of scopeSpans.spans ?? []) {
        spans.push({
          name: span.name,
          kind: span.kind,
          startTimeUnixNano: BigInt(span.startTimeUnixNano),
          endTimeUnixNano: BigInt(span.endTimeUnixNano),
          attributes: jsonAttributes(span.attributes),
          status: { code: span.status?.code ?? 0, message: span.status?.message ?? '' },
          resource,
        });
      }
    }
  }
  return spans;
}
