/**
 * A lexical JSON reader: it validates the grammar and records where every value sits, but never builds values.
 * Rewrites are made by copying byte ranges of the original text, so key order, `1.0`, `1e3` and 20-digit integers
 * stay exactly as written (never round-trip through JSON.parse/JSON.stringify).
 */
export interface JsonNode {
  readonly kind: 'object' | 'array' | 'string' | 'number' | 'literal';
  /** Offset of the first character of the value. */
  readonly start: number;
  /** Offset just past the value. */
  readonly end: number;
  /** Array items, or object member values. */
  readonly children: readonly JsonNode[];
  /** Object member keys (string nodes), parallel to `children`; empty for arrays. */
  readonly keys: readonly JsonNode[];
}

// eslint-disable-next-line no-control-regex -- raw control characters are invalid inside JSON strings (RFC 8259 §7)
const stringToken = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const numberToken = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const literalToken = /true|false|null/y;
const whitespace = /[ \t\n\r]*/y;
const maxDepth = 512;
const noNodes: readonly JsonNode[] = [];

class Reader {
  position: number;

  constructor(
    private readonly text: string,
    start: number,
  ) {
    this.position = start;
  }

  skipWhitespace(): void {
    whitespace.lastIndex = this.position;
    whitespace.exec(this.text);
    this.position = whitespace.lastIndex;
  }

  token(pattern: RegExp, kind: JsonNode['kind']): JsonNode | null {
    pattern.lastIndex = this.position;
    if (!pattern.test(this.text)) return null;
    const node: JsonNode = { kind, start: this.position, end: pattern.lastIndex, children: noNodes, keys: noNodes };
    this.position = pattern.lastIndex;
    return node;
  }

  value(depth: number): JsonNode | null {
    if (depth > maxDepth) return null;
    this.skipWhitespace();
    const char = this.text[this.position];
    if (char === '{') return this.object(depth);
    if (char === '[') return this.array(depth);
    if (char === '"') return this.token(stringToken, 'string');
    if (char === 't' || char === 'f' || char === 'n') return this.token(literalToken, 'literal');
    return this.token(numberToken, 'number');
  }

  array(depth: number): JsonNode | null {
    const start = this.position;
    this.position += 1;
    const children: JsonNode[] = [];
    this.skipWhitespace();
    if (this.text[this.position] === ']') {
      this.position += 1;
      return { kind: 'array', start, end: this.position, children, keys: noNodes };
    }
    for (;;) {
      const item = this.value(depth + 1);
      if (!item) return null;
      children.push(item);
      this.skipWhitespace();
      const char = this.text[this.position];
      this.position += 1;
      if (char === ']') return { kind: 'array', start, end: this.position, children, keys: noNodes };
      if (char !== ',') return null;
    }
  }

  object(depth: number): JsonNode | null {
    const start = this.position;
    this.position += 1;
    const children: JsonNode[] = [];
    const keys: JsonNode[] = [];
    this.skipWhitespace();
    if (this.text[this.position] === '}') {
      this.position += 1;
      return { kind: 'object', start, end: this.position, children, keys };
    }
    for (;;) {
      this.skipWhitespace();
      const key = this.token(stringToken, 'string');
      if (!key) return null;
      this.skipWhitespace();
      if (this.text[this.position] !== ':') return null;
      this.position += 1;
      const value = this.value(depth + 1);
      if (!value) return null;
      keys.push(key);
      children.push(value);
      this.skipWhitespace();
      const char = this.text[this.position];
      this.position += 1;
      if (char === '}') return { kind: 'object', start, end: this.position, children, keys };
      if (char !== ',') return null;
    }
  }
}

/** One JSON value starting at `start` (after optional whitespace), or null when the text is not JSON there. */
export function readJsonValue(text: string, start = 0): JsonNode | null {
  return new Reader(text, start).value(0);
}

/** A tool output that is a JSON document, possibly after a few lines of tool chatter (`npm warn …`). */
export interface JsonDocument {
  readonly root: JsonNode;
  /** Text before the document (kept verbatim). */
  readonly prefixEnd: number;
}

const maxCandidates = 4;
/** The document must be most of the output: a stray `[1]` in a log is not a JSON tool result. */
const minDocumentShare = 0.8;
const containerLineStart = /(?:^|\n)[ \t]*[[{]/g;

export function locateJsonDocument(text: string): JsonDocument | null {
  containerLineStart.lastIndex = 0;
  for (let attempt = 0; attempt < maxCandidates; attempt += 1) {
    const match = containerLineStart.exec(text);
    if (!match) return null;
    const start = match.index + match[0].length - 1;
    const root = readJsonValue(text, start);
    if (root && text.slice(root.end).trim() === '' && root.end - root.start >= text.length * minDocumentShare) {
      return { root, prefixEnd: start };
    }
    if (root) containerLineStart.lastIndex = root.end;
  }
  return null;
}

/** The source text of a string node without quotes, escapes left as written. */
export function rawStringBody(text: string, node: JsonNode): string {
  return text.slice(node.start + 1, node.end - 1);
}
