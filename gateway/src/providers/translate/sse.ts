/**
 * Server-sent events framing (WHATWG HTML "event stream interpretation"), incremental: byte chunks may be
 * split anywhere, including inside a UTF-8 sequence, a CRLF pair or a multi-line `data:` field. Used by the
 * streaming translators and by the proxy to watch passthrough streams for usage.
 */
export interface SseFrame {
  event?: string;
  /** `data:` lines joined with "\n". */
  data: string;
  id?: string;
  retry?: number;
}

const lineBreak = /[\r\n]/g;

export class SseParser {
  readonly #decoder = new TextDecoder('utf-8');
  #buffer = '';
  /** The previous chunk ended in "\r"; a "\n" opening the next one belongs to that line break. */
  #pendingCarriageReturn = false;
  #event: string | undefined;
  #data: string[] = [];
  #id: string | undefined;
  #retry: number | undefined;

  push(chunk: Uint8Array | string): SseFrame[] {
    const text = typeof chunk === 'string' ? chunk : this.#decoder.decode(chunk, { stream: true });
    return this.#consume(text);
  }

  /**
   * The upstream closed. Unlike a browser, a trailing frame with no closing blank line is still
   * delivered: some providers end the stream right after the last `data:` line.
   */
  end(): SseFrame[] {
    const frames = this.#consume(this.#decoder.decode());
    if (this.#buffer.length > 0) {
      this.#processLine(this.#buffer);
      this.#buffer = '';
    }
    const last = this.#dispatch();
    if (last) frames.push(last);
    return frames;
  }

  #consume(text: string): SseFrame[] {
    const frames: SseFrame[] = [];
    const input = this.#buffer + (this.#pendingCarriageReturn && text.startsWith('\n') ? text.slice(1) : text);
    if (this.#pendingCarriageReturn && text.length > 0) this.#pendingCarriageReturn = false;
    let position = 0;
    lineBreak.lastIndex = 0;
    for (let match = lineBreak.exec(input); match !== null; match = lineBreak.exec(input)) {
      const line = input.slice(position, match.index);
      position = match.index + 1;
      if (match[0] === '\r') {
        if (position === input.length) this.#pendingCarriageReturn = true;
        else if (input[position] === '\n') position += 1;
      }
      lineBreak.lastIndex = position;
      const frame = this.#processLine(line);
      if (frame) frames.push(frame);
    }
    this.#buffer = input.slice(position);
    return frames;
  }

  #processLine(line: string): SseFrame | undefined {
    if (line === '') return this.#dispatch();
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'event':
        this.#event = value;
        break;
      case 'data':
        this.#data.push(value);
        break;
      case 'id':
        if (!value.includes('\0')) this.#id = value;
        break;
      case 'retry':
        if (/^\d+$/.test(value)) this.#retry = Number(value);
        break;
      default:
        break;
    }
    return undefined;
  }

  #dispatch(): SseFrame | undefined {
    const hasData = this.#data.length > 0;
    const frame: SseFrame = { data: this.#data.join('\n') };
    if (this.#event !== undefined && this.#event !== '') frame.event = this.#event;
    if (this.#id !== undefined) frame.id = this.#id;
    if (this.#retry !== undefined) frame.retry = this.#retry;
    this.#event = undefined;
    this.#data = [];
    this.#id = undefined;
    this.#retry = undefined;
    // A frame without data carries no event (spec: "if the data buffer is an empty string, return").
    return hasData ? frame : undefined;
  }
}

/** Parses a whole event stream at once (fixtures, recorded responses). */
export function parseSse(text: string): SseFrame[] {
  const parser = new SseParser();
  return [...parser.push(text), ...parser.end()];
}

const newline = /\r\n|\r|\n/;

/** One frame on the wire, ending with its blank line. Multi-line data becomes several `data:` lines. */
export function serializeSseFrame(frame: SseFrame): string {
  let text = '';
  if (frame.event !== undefined) text += `event: ${singleLine(frame.event)}\n`;
  if (frame.id !== undefined) text += `id: ${singleLine(frame.id)}\n`;
  if (frame.retry !== undefined) text += `retry: ${frame.retry}\n`;
  for (const line of frame.data.split(newline)) text += `data: ${line}\n`;
  return `${text}\n`;
}

export function serializeSseFrames(frames: readonly SseFrame[]): string {
  let text = '';
  for (const frame of frames) text += serializeSseFrame(frame);
  return text;
}

/** A field value with a line break would end the field early and inject another. */
function singleLine(value: string): string {
  return value.replace(/[\r\n]/g, ' ');
}
