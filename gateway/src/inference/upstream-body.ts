/** Reading a provider's answer body, always with a bound on what is held in memory. */

/** An error body is relayed (and inspected) only up to this size; the rest is read and dropped. */
export const maxErrorBodyBytes = 1024 * 1024;

/** The whole body, keeping at most `maxBytes` of it: reading to the end frees the pooled connection. */
export async function readBounded(
  body: AsyncIterable<Buffer | Uint8Array>,
  maxBytes = maxErrorBodyBytes,
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    if (size < maxBytes) chunks.push(size + bytes.length <= maxBytes ? bytes : bytes.subarray(0, maxBytes - size));
    size += bytes.length;
  }
  return Buffer.concat(chunks);
}

/** The first chunks of a body, up to a byte limit, and whether they are the whole of it. */
export interface BodyHead {
  chunks: Buffer[];
  /** True when the body ended within the limit; otherwise the rest is still in the iterator. */
  complete: boolean;
}

/** Pulls chunks until the body ends or more than `limit` bytes arrived; the iterator keeps what follows. */
export async function readHead(body: AsyncIterator<Buffer>, limit: number): Promise<BodyHead> {
  const chunks: Buffer[] = [];
  let size = 0;
  while (size <= limit) {
    const next = await body.next();
    if (next.done) return { chunks, complete: true };
    chunks.push(next.value);
    size += next.value.length;
  }
  return { chunks, complete: false };
}
