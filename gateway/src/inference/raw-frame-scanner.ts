/**
 * Byte-level view of a same-family SSE stream for the relay's hot path. The relay must see every frame that can end
 * the stream, report an error or carry usage, but those are a handful of a stream's frames: splitting every chunk into
 * decoded frames and testing each with several substring checks cost more than the rest of the relay. Here a chunk
 * stays a Buffer, its complete frames are searched once for all the markers below (one compiled regular expression
 * over a latin1 view, whose offsets are byte offsets), and only the frames containing a marker are decoded.
 * Everything else goes to the client as the provider's bytes.
 *
 * Any frame the relay's textual checks (`relay-stream.ts`) can match contains one of these markers verbatim, so the
 * frames found here are a superset of the frames those checks would act on.
 */
const markerPattern =
  /data: (?:\[DONE\]|\{"error")|event: (?:message_stop|error|message_start|message_delta)|"usage": ?\{/g;

const frameEnd = Buffer.from('\n\n', 'latin1');

/** The complete frames of what arrived so far, and the decoded frames in it that carry a marker. */
export interface ScannedRegion {
  /** Complete frames (each up to and including its blank line), as received. */
  bytes: Buffer;
  /** Frames that contain a marker, in stream order: byte offsets into `bytes` and the decoded text. */
  marked: Array<{ start: number; end: number; raw: string }>;
}

export class RawFrameScanner {
  private pending: Buffer | null = null;

  /**
   * The complete frames of `pending + chunk`; the trailing partial frame is kept for the next chunk. Null when the
   * stream uses CR line breaks, which only the text splitter (`RawFrameSplitter`) normalises; `takePending` then
   * hands it what was held back.
   */
  push(chunk: Buffer): ScannedRegion | null {
    const data = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    // One latin1 view for every search below: its offsets are byte offsets, and string searches are cheaper than
    // Buffer ones for this size.
    const text = data.toString('latin1');
    if (text.includes('\r')) {
      this.pending = data;
      return null;
    }
    // Three newlines in a row make "the last blank line" ambiguous; frame boundaries are then found front to back,
    // exactly as the text splitter finds them.
    const irregular = text.includes('\n\n\n');
    const cut = irregular ? lastBoundaryFromStart(data) : endOfLastFrame(text);
    if (cut <= 0) {
      this.pending = data;
      return { bytes: data.subarray(0, 0), marked: [] };
    }
    // A copy: the held-back tail must not pin (or alias) the provider's chunk buffer.
    this.pending = cut < data.length ? Buffer.from(data.subarray(cut)) : null;
    const bytes = data.subarray(0, cut);
    return { bytes, marked: irregular ? markedFramesFromStart(bytes) : markedFrames(bytes, text) };
  }

  takePending(): Buffer {
    const pending = this.pending ?? Buffer.alloc(0);
    this.pending = null;
    return pending;
  }
}

/** `text` is the latin1 view of `bytes` and possibly of a partial frame after them, which is not searched. */
function markedFrames(bytes: Buffer, text: string): ScannedRegion['marked'] {
  const marked: ScannedRegion['marked'] = [];
  markerPattern.lastIndex = 0;
  for (
    let match = markerPattern.exec(text);
    match !== null && match.index < bytes.length;
    match = markerPattern.exec(text)
  ) {
    // No marker contains "\n\n", so the frame holding it starts after the last blank line before it.
    const previous = match.index === 0 ? -1 : text.lastIndexOf('\n\n', match.index - 1);
    const start = previous === -1 ? 0 : previous + 2;
    const end = text.indexOf('\n\n', match.index) + 2;
    marked.push({ start, end, raw: bytes.toString('utf8', start, end) });
    // Resume after this frame: one decode per frame however many markers it holds.
    markerPattern.lastIndex = end;
  }
  return marked;
}

function endOfLastFrame(text: string): number {
  const last = text.lastIndexOf('\n\n');
  return last === -1 ? 0 : last + 2;
}

function* framesFromStart(bytes: Buffer): Generator<{ start: number; end: number }> {
  let start = 0;
  for (let at = bytes.indexOf(frameEnd); at !== -1; at = bytes.indexOf(frameEnd, start)) {
    yield { start, end: at + frameEnd.length };
    start = at + frameEnd.length;
  }
}

function lastBoundaryFromStart(bytes: Buffer): number {
  let cut = 0;
  for (const frame of framesFromStart(bytes)) cut = frame.end;
  return cut;
}

function markedFramesFromStart(bytes: Buffer): ScannedRegion['marked'] {
  const marked: ScannedRegion['marked'] = [];
  for (const { start, end } of framesFromStart(bytes)) {
    markerPattern.lastIndex = 0;
    if (markerPattern.test(bytes.toString('latin1', start, end)))
      marked.push({ start, end, raw: bytes.toString('utf8', start, end) });
  }
  return marked;
}
