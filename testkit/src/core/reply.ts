import type { IdSource } from './ids.js';

/**
 * The provider-neutral reply both simulators render: a deterministic function of the request (so tests can
 * predict it) that a script or `replyWith` can override field by field.
 */
export type FinishReason = 'stop' | 'length' | 'tool_calls';

/**
 * Token counts, rendered in each provider's own semantics: OpenAI `prompt_tokens` includes
 * `cached_tokens`; Anthropic `input_tokens` excludes `cache_read_input_tokens` and `cache_creation_input_tokens`.
 */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  cacheCreationInputTokens: number;
  reasoningTokens: number;
}
export type UsageSpec = Partial<Usage>;

export interface ToolCallSpec {
  name: string;
  /** A JSON object, or a string sent verbatim (lets tests send malformed arguments). */
  arguments?: string | Record<string, unknown>;
  id?: string;
}

export interface ReplySpec {
  model?: string;
  text?: string;
  toolCalls?: readonly ToolCallSpec[];
  /** Thinking text (Anthropic `thinking` block; counted as reasoning tokens). */
  thinking?: string;
  finishReason?: FinishReason;
  usage?: UsageSpec;
}

export interface ToolCall {
  id: string;
  name: string;
  /** JSON text of the arguments. */
  arguments: string;
}

export interface Reply {
  model: string;
  text: string;
  toolCalls: ToolCall[];
  thinking: string | undefined;
  finishReason: FinishReason;
  usage: Usage;
}

export interface ToolDefinition {
  name: string;
  /** JSON Schema of the tool's input, used to fill required arguments. */
  schema: unknown;
}

export type ToolChoice = { kind: 'auto' } | { kind: 'none' } | { kind: 'required' } | { kind: 'named'; name: string };

/** What each provider extracts from its own request shape; the rest of the reply logic is shared. */
export interface ConversationSummary {
  model: string;
  messageCount: number;
  /** Text of the last message when it comes from the user; empty when it is e.g. a tool result. */
  lastUserText: string;
  /** Characters of prompt text (system, messages, tools), the basis of the input token estimate. */
  promptChars: number;
  tools: readonly ToolDefinition[];
  toolChoice: ToolChoice;
  maxTokens: number | undefined;
  /** Whether the model "thinks" (Anthropic extended thinking, OpenAI reasoning models). */
  thinking: boolean;
}

/** Cheap, deterministic stand-in for a tokenizer: about four characters per token. */
export function estimateTokens(chars: number): number {
  return chars <= 0 ? 0 : Math.ceil(chars / 4);
}

/**
 * The tool-call trigger: when the request offers tools and its last message is a user message containing
 * `call tool <name>` (optionally `call tool <name> with {json}`), the reply is a call of that tool.
 */
const TOOL_TRIGGER = /call tool\s+([\w.-]+)(?:\s+with\s+(\{[\s\S]*\}))?/i;

export function buildReply(
  summary: ConversationSummary,
  spec: ReplySpec | undefined,
  ids: IdSource,
  toolIdPrefix: string,
): Reply {
  const model = spec?.model ?? summary.model;
  const toolCalls = resolveToolCalls(summary, spec, ids, toolIdPrefix);
  let text = spec?.text ?? (toolCalls.length > 0 ? '' : defaultText(summary));
  const thinking =
    spec?.thinking ??
    (summary.thinking ? `Considering the ${summary.messageCount} message(s) before answering.` : undefined);
  let finishReason: FinishReason = spec?.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop');
  if (
    spec?.finishReason === undefined &&
    summary.maxTokens !== undefined &&
    estimateTokens(text.length) > summary.maxTokens
  ) {
    text = text.slice(0, summary.maxTokens * 4);
    finishReason = 'length';
  }
  const reasoningTokens = estimateTokens(thinking?.length ?? 0);
  const argumentChars = toolCalls.reduce((sum, call) => sum + call.name.length + call.arguments.length, 0);
  const usage: Usage = {
    inputTokens: estimateTokens(summary.promptChars),
    outputTokens: estimateTokens(text.length) + estimateTokens(argumentChars) + reasoningTokens,
    cachedInputTokens: 0,
    cacheCreationInputTokens: 0,
    reasoningTokens,
    ...spec?.usage,
  };
  return { model, text, toolCalls, thinking, finishReason, usage };
}

function defaultText(summary: ConversationSummary): string {
  const snippet = summary.lastUserText.length > 80 ? `${summary.lastUserText.slice(0, 77)}...` : summary.lastUserText;
  return `Simulated reply from ${summary.model} to ${summary.messageCount} message(s). You said: "${snippet}"`;
}

function resolveToolCalls(
  summary: ConversationSummary,
  spec: ReplySpec | undefined,
  ids: IdSource,
  prefix: string,
): ToolCall[] {
  if (spec?.toolCalls) {
    return spec.toolCalls.map((call) => ({
      id: call.id ?? ids.next(prefix),
      name: call.name,
      arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {}),
    }));
  }
  if (spec?.text !== undefined) return [];
  const wanted = wantedToolCall(summary);
  if (!wanted) return [];
  return [
    {
      id: ids.next(prefix),
      name: wanted.tool.name,
      arguments: wanted.arguments ?? JSON.stringify(sampleArguments(wanted.tool.schema)),
    },
  ];
}

function wantedToolCall(
  summary: ConversationSummary,
): { tool: ToolDefinition; arguments: string | undefined } | undefined {
  const { tools, toolChoice } = summary;
  if (tools.length === 0 || toolChoice.kind === 'none') return undefined;
  const match = TOOL_TRIGGER.exec(summary.lastUserText);
  const triggered = match ? tools.find((tool) => tool.name === match[1]) : undefined;
  if (triggered) return { tool: triggered, arguments: match?.[2] };
  if (toolChoice.kind === 'named') {
    const named = tools.find((tool) => tool.name === toolChoice.name);
    return named ? { tool: named, arguments: undefined } : undefined;
  }
  const first = tools[0];
  return toolChoice.kind === 'required' && first ? { tool: first, arguments: undefined } : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Fills the schema's required properties with placeholder values of the declared type. */
export function sampleArguments(schema: unknown): Record<string, unknown> {
  if (!isRecord(schema) || !isRecord(schema.properties)) return {};
  const properties = schema.properties;
  const required = Array.isArray(schema.required) ? schema.required.filter((name) => typeof name === 'string') : [];
  const result: Record<string, unknown> = {};
  for (const name of required) result[name] = sampleValue(properties[name]);
  return result;
}

function sampleValue(property: unknown): unknown {
  if (!isRecord(property)) return null;
  if (Array.isArray(property.enum) && property.enum.length > 0) return property.enum[0];
  switch (property.type) {
    case 'string':
      return 'sample';
    case 'number':
    case 'integer':
      return 1;
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
      return sampleArguments(property);
    default:
      return null;
  }
}

/** Splits text into word-sized stream deltas (each keeps its trailing space), as providers stream tokens. */
export function splitIntoDeltas(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

/** Splits JSON argument text into fragments of at most `size` characters, as providers stream tool input. */
export function splitIntoFragments(text: string, size = 12): string[] {
  const fragments: string[] = [];
  for (let start = 0; start < text.length; start += size) fragments.push(text.slice(start, start + size));
  return fragments;
}
