/**
 * Splits an SSE byte stream into raw frames (text up to and including the blank line) without decoding fields, so a
 * same-family stream can be relayed byte for byte while the gateway watches it. Providers frame with "\n\n"; a
 * stream using CR line breaks is normalised first so no frame boundary is missed.
 */
export class RawFrameSplitter {
  private readonly decoder = new TextDecoder('utf-8');
  private buffer = '';

  push(chunk: Uint8Array): string[] {
    this.buffer += this.decoder.decode(chunk, { stream: true });
    if (this.buffer.includes('\r')) this.buffer = this.buffer.replace(/\r\n?/g, '\n');
    const frames: string[] = [];
    let start = 0;
    let boundary = this.buffer.indexOf('\n\n');
    while (boundary !== -1) {
      frames.push(this.buffer.slice(start, boundary + 2));
      start = boundary + 2;
      boundary = this.buffer.indexOf('\n\n', start);
    }
    if (start > 0) this.buffer = this.buffer.slice(start);
    return frames;
  }

  /** What remains when the upstream closes (a last frame without its blank line). */
  end(): string[] {
    const rest = this.buffer + this.decoder.decode();
    this.buffer = '';
    return rest.trim().length > 0 ? [rest.endsWith('\n') ? `${rest}\n` : `${rest}\n\n`] : [];
  }
}

/** The `data:` payload of a raw frame (multi-line data joined with "\n"), and its `event:` name. */
export function decodeRawFrame(raw: string): { event?: string; data: string } {
  let event: string | undefined;
  const data: string[] = [];
  for (const line of raw.split('\n')) {
    if (line.startsWith('data:')) data.push(line.slice(line.startsWith('data: ') ? 6 : 5));
    else if (line.startsWith('event:')) event = line.slice(6).trim();
  }
  return { ...(event === undefined ? {} : { event }), data: data.join('\n') };
}

/** A line of the raw frame starts with `prefix`: a field as the provider framed it, not text quoted in a payload. */
const hasLine = (raw: string, prefix: string) => raw.startsWith(prefix) || raw.includes(`\n${prefix}`);

/** The line starts the relay acts on, by what they mean; `RawFrameScanner` looks for the same list. */
export const frameLines = {
  done: 'data: [DONE]',
  errorData: 'data: {"error"',
  errorEvent: 'event: error',
  messageStart: 'event: message_start',
  messageDelta: 'event: message_delta',
  messageStop: 'event: message_stop',
} as const;

// Cheap textual checks on raw frames; only frames that can matter are decoded. `RawFrameScanner` finds exactly the
// frames these act on.
export const rawTerminal = (raw: string) => hasLine(raw, frameLines.done) || hasLine(raw, frameLines.messageStop);
export const rawError = (raw: string) => hasLine(raw, frameLines.errorEvent) || hasLine(raw, frameLines.errorData);
export const rawCarriesUsage = (raw: string) =>
  raw.includes('"usage":{') ||
  raw.includes('"usage": {') ||
  hasLine(raw, frameLines.messageStart) ||
  hasLine(raw, frameLines.messageDelta);
export const rawUsageOnly = (raw: string) => raw.includes('"choices":[]') && rawCarriesUsage(raw);
