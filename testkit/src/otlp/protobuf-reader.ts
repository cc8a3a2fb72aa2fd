/**
 * A protobuf wire-format reader, just enough for OTLP: varints, 64-bit and length-delimited fields. The collector
 * side of OTLP/HTTP reads exactly these bytes, so the receiver decodes what a real collector would.
 */
export interface ProtobufField {
  number: number;
  wireType: number;
  /** Varint fields as bigint; fixed64 as the 8 raw bytes; length-delimited as their bytes. */
  value: bigint | Uint8Array;
}

function readVarint(bytes: Uint8Array, offset: number): { value: bigint; next: number } {
  let value = 0n;
  let shift = 0n;
  let position = offset;
  for (;;) {
    const byte = bytes[position];
    if (byte === undefined) throw new Error('truncated varint');
    value |= BigInt(byte & 0x7f) << shift;
    position += 1;
    if ((byte & 0x80) === 0) return { value, next: position };
    shift += 7n;
    if (shift > 63n) throw new Error('varint too long');
  }
}

/** The fields of one message, in wire order (repeated fields appear once per element). */
export function readFields(bytes: Uint8Array): ProtobufField[] {
  const fields: ProtobufField[] = [];
  let offset = 0;
  while (offset < bytes.length) {
    const tag = readVarint(bytes, offset);
    offset = tag.next;
    const number = Number(tag.value >> 3n);
    const wireType = Number(tag.value & 7n);
    if (wireType === 0) {
      const varint = readVarint(bytes, offset);
      fields.push({ number, wireType, value: varint.value });
      offset = varint.next;
    } else if (wireType === 1) {
      fields.push({ number, wireType, value: bytes.subarray(offset, offset + 8) });
      offset += 8;
    } else if (wireType === 2) {
      const length = readVarint(bytes, offset);
      const start = length.next;
      const end = start + Number(length.value);
      if (end > bytes.length) throw new Error('truncated field');
      fields.push({ number, wireType, value: bytes.subarray(start, end) });
      offset = end;
    } else if (wireType === 5) {
      fields.push({ number, wireType, value: bytes.subarray(offset, offset + 4) });
      offset += 4;
    } else {
      throw new Error(`unsupported wire type ${wireType}`);
    }
  }
  return fields;
}

export const text = (value: bigint | Uint8Array): string =>
  value instanceof Uint8Array ? new TextDecoder().decode(value) : String(value);
export const bytesOf = (value: bigint | Uint8Array): Uint8Array =>
  value instanceof Uint8Array ? value : new Uint8Array();
export const fixed64 = (value: bigint | Uint8Array): bigint =>
  value instanceof Uint8Array ? Buffer.from(value).readBigUInt64LE(0) : value;
export const double = (value: bigint | Uint8Array): number =>
  value instanceof Uint8Array ? Buffer.from(value).readDoubleLE(0) : Number(value);
