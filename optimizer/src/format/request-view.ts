/** Path from the request root to one string value, e.g. `['messages', 5, 'content']`. */
export type JsonPath = readonly (string | number)[];

export type RequestFormat = 'openai-chat' | 'anthropic-messages' | 'openai-responses';

/** Where a span sits; pins carry exactly these numbers. */
export interface SpanLocation {
  readonly messageIndex: number;
  /** Content block (Anthropic) or content part (OpenAI) inside the message. */
  readonly partIndex?: number;
  /** Text block inside an Anthropic `tool_result` whose content is an array. */
  readonly subIndex?: number;
}

/**
 * One tool output in a neutral shape, whatever the wire format: strategies are written once against this.
 * `text` is always the client's original bytes; rewrites travel separately.
 */
export interface ToolOutputSpan extends SpanLocation {
  /** `m5`, `m5.p2`, `m5.p2.s0`: stable for a location, used to group pins. */
  readonly key: string;
  readonly path: JsonPath;
  readonly text: string;
  readonly toolCallId: string | undefined;
  readonly toolName: string | undefined;
  /** The call's arguments as the client sent them (JSON text), for classification only. */
  readonly toolInput: string | undefined;
  /** False for the fresh (last) turn, which the model is about to read. */
  readonly settled: boolean;
  readonly isError: boolean;
  /** `observation`: a shell agent's result carried in a user turn (`<returncode>…`), no structured tool call. */
  readonly origin: 'tool' | 'observation';
}

export interface ToolsInfo {
  /** The request declares at least one callable tool. */
  readonly declared: boolean;
  /** An exact `gw_retrieve` declaration. */
  readonly retrieveDeclared: boolean;
  /** `tool_choice` is `none`: the model cannot call anything this turn. */
  readonly choiceNone: boolean;
  /** The one tool `tool_choice` forces the model to call this turn, if any. */
  readonly forcedTool?: string | undefined;
}

export interface RequestView {
  readonly format: RequestFormat;
  readonly model: string | undefined;
  /** Number of entries in the conversation array (`messages` or `input`). */
  readonly messageCount: number;
  /** Index of the first message of the fresh turn; everything before it is settled history. */
  readonly freshStart: number;
  /** Model turns so far (assistant messages): how long this session has been going. */
  readonly modelTurns: number;
  readonly spans: readonly ToolOutputSpan[];
  readonly tools: ToolsInfo;
  /** The client marks prompt-cache breakpoints itself (Anthropic `cache_control`). */
  readonly explicitCacheControl: boolean;
  /** The conversation entry at `index`, as sent (for boundary fingerprints). */
  messageAt(index: number): unknown;
}

export function spanKey(location: SpanLocation): string {
  let key = `m${location.messageIndex}`;
  if (location.partIndex !== undefined) key += `.p${location.partIndex}`;
  if (location.subIndex !== undefined) key += `.s${location.subIndex}`;
  return key;
}
