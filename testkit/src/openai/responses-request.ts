import type { ErrorSpec } from '../core/behaviour.js';
import type { ConversationSummary, ToolChoice, ToolDefinition } from '../core/reply.js';
import { contentText } from './chat-completions.js';

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// The same rule as Chat Completions: o-series and gpt-5 models reason.
const REASONING_MODEL = /^(o\d|gpt-5)/;

// The Responses API rejects a smaller `max_output_tokens`.
const MIN_OUTPUT_TOKENS = 16;

/** The Responses API words a missing model unlike Chat Completions ("you must provide a model parameter"). */
export const RESPONSES_MISSING_MODEL: ErrorSpec = Object.freeze({
  message: "Missing required parameter: 'model'.",
  param: 'model',
  code: 'missing_required_parameter',
});

function typeName(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

const missing = (param: string): ErrorSpec => ({
  message: `Missing required parameter: '${param}'.`,
  param,
  code: 'missing_required_parameter',
});

const present = (value: unknown): boolean => value !== undefined && value !== null;

// Input may come from elsewhere than `input`: a stored prompt, a previous response or a conversation.
function inputFromElsewhere(body: Json): boolean {
  return present(body.previous_response_id) || present(body.conversation) || present(body.prompt);
}

/** The request's first problem, worded as the real API words it; undefined when the simulator can answer. */
export function responsesRequestError(body: Json): ErrorSpec | undefined {
  const { input, tools } = body;
  if (!present(input) && !inputFromElsewhere(body)) return missing('input');
  if (present(input) && typeof input !== 'string' && !Array.isArray(input)) {
    return {
      message: `Invalid type for 'input': expected one of a string or array of input items, but got ${typeName(input)} instead.`,
      param: 'input',
      code: 'invalid_type',
    };
  }
  if (present(tools) && !Array.isArray(tools)) {
    return {
      message: `Invalid type for 'tools': expected an array of objects, but got ${typeName(tools)} instead.`,
      param: 'tools',
      code: 'invalid_type',
    };
  }
  // A Chat Completions tool (`{type:'function', function:{name}}`) sent here fails exactly this way.
  const unnamed = Array.isArray(tools)
    ? tools.findIndex((tool) => isRecord(tool) && tool.type === 'function' && typeof tool.name !== 'string')
    : -1;
  if (unnamed >= 0) return missing(`tools[${unnamed}].name`);
  const limit = body.max_output_tokens;
  if (typeof limit === 'number' && limit < MIN_OUTPUT_TOKENS) {
    return {
      message: `Invalid 'max_output_tokens': integer below minimum value. Expected a value >= ${MIN_OUTPUT_TOKENS}, but got ${limit} instead.`,
      param: 'max_output_tokens',
      code: 'integer_below_min_value',
    };
  }
  return undefined;
}

/** `input` as a list of items: a bare string is one user message. */
export function inputItems(input: unknown): unknown[] {
  if (typeof input === 'string') return [{ role: 'user', content: input }];
  return Array.isArray(input) ? input : [];
}

function itemChars(item: unknown): number {
  if (!isRecord(item)) return 0;
  if (item.type === 'function_call') {
    return (
      (typeof item.name === 'string' ? item.name.length : 0) +
      (typeof item.arguments === 'string' ? item.arguments.length : 0)
    );
  }
  if (item.type === 'function_call_output') return contentText(item.output).length;
  return contentText(item.content).length;
}

function isUserMessage(item: unknown): item is Json {
  return isRecord(item) && item.role === 'user' && (item.type === undefined || item.type === 'message');
}

/** Flat function tools (`{type:'function', name, parameters}`); built-in tools (web search, …) are not simulated. */
function toolDefinitions(tools: unknown): ToolDefinition[] {
  if (!Array.isArray(tools)) return [];
  const definitions: ToolDefinition[] = [];
  for (const tool of tools) {
    if (isRecord(tool) && tool.type === 'function' && typeof tool.name === 'string')
      definitions.push({ name: tool.name, schema: tool.parameters });
  }
  return definitions;
}

function toolChoice(choice: unknown): ToolChoice {
  if (choice === 'none' || choice === 'required') return { kind: choice };
  if (isRecord(choice) && choice.type === 'function' && typeof choice.name === 'string')
    return { kind: 'named', name: choice.name };
  return { kind: 'auto' };
}

/**
 * What the shared reply builder needs from a Responses request. `instructions` count towards the prompt but, like
 * Anthropic's `system`, not as a message; every input item (message, function call, function call output) does.
 */
export function summarizeResponsesRequest(body: Json, model: string): ConversationSummary {
  const items = inputItems(body.input);
  let promptChars = typeof body.instructions === 'string' ? body.instructions.length : 0;
  for (const item of items) promptChars += itemChars(item);
  const tools = toolDefinitions(body.tools);
  if (tools.length > 0) promptChars += JSON.stringify(body.tools).length;
  const last = items[items.length - 1];
  return {
    model,
    messageCount: items.length,
    lastUserText: isUserMessage(last) ? contentText(last.content) : '',
    promptChars,
    tools,
    toolChoice: toolChoice(body.tool_choice),
    maxTokens: typeof body.max_output_tokens === 'number' ? body.max_output_tokens : undefined,
    thinking: REASONING_MODEL.test(model) || isRecord(body.reasoning),
  };
}
