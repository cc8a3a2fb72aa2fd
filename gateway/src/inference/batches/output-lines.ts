import { createHash } from 'node:crypto';
import { extractOpenAiUsage } from '../../providers/translate/extract-openai-usage.js';
import { isPlainObject, parseJson } from '../../providers/translate/parse-wire.js';
import type { Usage } from '../../providers/translate/usage.js';

/** What one line of a batch's output file bills: never its content. */
export interface OutputLine {
  /**
   * The line's identity for billing it once: `id:` and a digest of the request's `custom_id` (the client's own string
   * never reaches the store), or `#<position>` when the line has none.
   */
  lineKey: string;
  /** The provider's status for the request (`response.status_code`); null when the line names none. */
  status: number | null;
  model: string | null;
  usage: Usage | undefined;
}

/**
 * A line longer than this is not read for usage (it is still relayed whole): a batch line is one API response, and
 * holding an unbounded line would let one output file take the gateway's memory.
 */
const maxLineBytes = 16 * 1024 * 1024;

/**
 * Reads a batch output file (JSONL of `{id, custom_id, response: {status_code, body}}`) as it streams past, a chunk
 * at a time, into one `OutputLine` per non-empty line. Lines that are not JSON objects, or too long to hold, are
 * counted in `skipped` and bill nothing.
 */
export class OutputLineReader {
  readonly lines: OutputLine[] = [];
  skipped = 0;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private overlong = false;
  private position = 0;

  push(chunk: Buffer): void {
    let start = 0;
    for (let newline = chunk.indexOf(0x0a); newline !== -1; newline = chunk.indexOf(0x0a, start)) {
      this.hold(chunk.subarray(start, newline));
      this.finishLine();
      start = newline + 1;
    }
    this.hold(chunk.subarray(start));
  }

  /** The last line, when the file does not end with a newline. */
  end(): void {
    if (this.pendingBytes > 0 || this.overlong) this.finishLine();
  }

  private hold(part: Buffer): void {
    if (part.length === 0 || this.overlong) return;
    if (this.pendingBytes + part.length > maxLineBytes) {
      this.overlong = true;
      this.pending = [];
      this.pendingBytes = 0;
      return;
    }
    this.pending.push(part);
    this.pendingBytes += part.length;
  }

  private finishLine(): void {
    const text = this.overlong ? null : Buffer.concat(this.pending, this.pendingBytes).toString('utf8');
    this.pending = [];
    this.pendingBytes = 0;
    this.overlong = false;
    if (text !== null && text.trim() === '') return;
    const position = this.position;
    this.position += 1;
    const line = text === null ? null : lineOf(parseJson(text), position);
    if (line) this.lines.push(line);
    else this.skipped += 1;
  }
}

function lineOf(parsed: unknown, position: number): OutputLine | null {
  if (!isPlainObject(parsed)) return null;
  const response = isPlainObject(parsed.response) ? parsed.response : null;
  const body = response && isPlainObject(response.body) ? response.body : null;
  const customId = typeof parsed.custom_id === 'string' && parsed.custom_id.length > 0 ? parsed.custom_id : null;
  return {
    lineKey:
      customId === null ? `#${position}` : `id:${createHash('sha256').update(customId).digest('hex').slice(0, 32)}`,
    status: response && typeof response.status_code === 'number' ? response.status_code : null,
    model: body && typeof body.model === 'string' ? body.model : null,
    usage: extractOpenAiUsage(body),
  };
}
