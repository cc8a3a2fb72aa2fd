import { frameLines } from './raw-frames.js';

/**
 * Byte-level view of a same-family SSE stream for the relay's hot path. The relay must see every frame that can end
 * the stream, report an error or carry usage, but those are a handful of a stream's frames: splitting every chunk into
 * decoded frames and testing each with several substring checks cost more than the rest of the relay. Here a chunk
 * stays a Buffer; its lines are walked over a latin1 view (whose offsets are byte offsets), and only the frames that
 * matter are decoded. Everything else goes to the client as the provider's bytes.
 *
 * A frame matters when one of its lines starts with a line marker (the stream's end, an error, an Anthropic event
 * that carries usage) or it holds a `"usage"` object. Markers are checked where they can occur, not searched for
 * anywhere: a regular expression over the whole chunk stopped at every quote of the JSON payloads, and a literal
 * search per marker switches to Boyer-Moore on such text. Counted with callgrind on a 5.7 KB chat stream (21 frames):
 * about 70,000 instructions per chunk for the expression, 13,000 for this walk, which finds the line breaks and the
 * `u` of `usage"` with `memchr` and decides most lines by their first byte or two.
 *
 * The frames found are exactly those the relay's textual checks (`rawTerminal`, `rawError`, `rawCarriesUsage` in
 * `raw-frames.ts`) act on; like them, the scanner does not flag a frame whose JSON text merely quotes a marker.
 */
/** The event lines that matter (every data line that does is told apart by its first bytes below). */
const eventLines = [frameLines.errorEvent, frameLines.messageStart, frameLines.messageDelta, frameLines.messageStop];

/** `"usage":{` or `"usage": {` (the text checks' usage markers), starting at or after `from`; -1 when none. */
function nextUsageObject(text: string, from: number): number {
  // Six characters: V8 searches a pattern this short with memchr on its first letter, never with Boyer-Moore.
  for (let at = text.indexOf('usage"', from); at !== -1; at = text.indexOf('usage"', at + 6)) {
    if (at > 0 && text.charCodeAt(at - 1) === 0x22 && (text.startsWith(':{', at + 6) || text.startsWith(': {', at + 6)))
      return at - 1;
  }
  return -1;
}

/** Whether the line at `at` starts with a line marker: most lines are told apart by a byte or two before any compare. */
function lineMatters(text: string, at: number): boolean {
  switch (text.charCodeAt(at)) {
    case 0x64: // d: `data: [DONE]` or `data: {"error"`, where a chat chunk reads `data: {"id"`
      return text.charCodeAt(at + 6) === 0x5b
        ? text.startsWith(frameLines.done, at)
        : text.charCodeAt(at + 8) === 0x65 && text.startsWith(frameLines.errorData, at);
    case 0x65: // e
      return eventLines.some((line) => text.startsWith(line, at));
    default:
      return false;
  }
}

/** The complete frames of what arrived so far, and the decoded frames in it that matter. */
export interface ScannedRegion {
  /** Complete frames (each up to and including its blank line), as received. */
  bytes: Buffer;
  /** How many frames `bytes` holds (the relay counts the events it sends). */
  frames: number;
  /** Frames that matter, in stream order: byte offsets into `bytes` and the decoded text. */
  marked: Array<{ start: number; end: number; raw: string }>;
}

/**
 * Where the walk of a held-back partial frame stopped, as offsets into it: its next unread line, whether a line of it
 * already mattered, and the `"usage"` search (an object found at `usage`, or none before `usageFrom`). A frame that
 * arrives in many chunks is then walked once, not again from its start with every chunk.
 */
interface WalkState {
  line: number;
  matters: boolean;
  usage: number;
  usageFrom: number;
}

const freshWalk: WalkState = { line: 0, matters: false, usage: -1, usageFrom: 0 };

/** `"usage": {` is ten characters: a search that ended this close to the end of the text may have missed one. */
const longestUsageMarker = 10;

export class RawFrameScanner {
  private pending: Buffer | null = null;
  private walk: WalkState = freshWalk;

  /**
   * The complete frames of `pending + chunk`; the trailing partial frame is kept for the next chunk. Null when the
   * stream uses CR line breaks, which only the text splitter (`RawFrameSplitter`) normalises; `takePending` then
   * hands it what was held back.
   */
  push(chunk: Buffer): ScannedRegion | null {
    const data = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    const text = data.toString('latin1');
    if (text.includes('\r')) {
      this.pending = data;
      return null;
    }
    const { cut, frames, marked, walk } = walkFrames(data, text, this.walk);
    // A copy: the held-back tail must not pin (or alias) the provider's chunk buffer.
    this.pending = cut < data.length ? Buffer.from(data.subarray(cut)) : null;
    this.walk = this.pending ? walk : freshWalk;
    return { bytes: data.subarray(0, cut), frames, marked };
  }

  takePending(): Buffer {
    const pending = this.pending ?? Buffer.alloc(0);
    this.pending = null;
    this.walk = freshWalk;
    return pending;
  }
}

/**
 * Frames front to back, as the text splitter cuts them: a frame ends at the first blank line after its start (so a
 * run of three line breaks leaves the third to open the next frame). `cut` is the end of the last complete frame;
 * `walk` is where the walk of the partial frame after it stopped, relative to `cut`.
 */
function walkFrames(
  bytes: Buffer,
  text: string,
  from: WalkState,
): { cut: number; frames: number; marked: ScannedRegion['marked']; walk: WalkState } {
  const marked: ScannedRegion['marked'] = [];
  let usage = from.usage !== -1 ? from.usage : nextUsageObject(text, from.usageFrom);
  let frameStart = 0;
  let frames = 0;
  let matters = from.matters;
  let lineStart = from.line;
  for (let lineEnd = text.indexOf('\n', lineStart); lineEnd !== -1; lineEnd = text.indexOf('\n', lineStart)) {
    if (lineEnd === lineStart && lineStart > frameStart) {
      const end = lineEnd + 1;
      if (usage !== -1 && usage < frameStart) usage = nextUsageObject(text, frameStart);
      if (matters || (usage !== -1 && usage < end))
        marked.push({ start: frameStart, end, raw: bytes.toString('utf8', frameStart, end) });
      frameStart = end;
      frames += 1;
      matters = false;
    } else if (!matters) matters = lineMatters(text, lineStart);
    lineStart = lineEnd + 1;
  }
  const cut = frameStart;
  const walk: WalkState = {
    line: lineStart - cut,
    matters,
    // Found inside the partial frame: keep it. None to the end: search again only where a marker could be cut off.
    // Found in a frame already relayed: the partial frame has not been searched.
    usage: usage >= cut ? usage - cut : -1,
    usageFrom: usage === -1 ? Math.max(0, text.length - longestUsageMarker - cut) : 0,
  };
  return { cut, frames, marked, walk };
}
