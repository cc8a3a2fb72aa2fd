type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

// Seat lane: these Responses fields have no chat-completions meaning and are dropped.
const dropped = new Set([
  'input',
  'instructions',
  'max_output_tokens',
  'store',
  'previous_response_id',
  'truncation',
  'tools',
  'text',
  'reasoning',
  'include',
]);

const stringOf = (value: unknown): string =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => (isObject(part) && typeof part.text === 'string' ? part.text : ''))
    .filter(Boolean)
    .join('\n');
}

/** Responses input items → chat messages: role messages, function calls and their outputs. */
function inputToMessages(input: unknown): Json[] {
  if (typeof input === 'string') return [{ role: 'user', content: input }];
  if (!Array.isArray(input)) return [];
  const messages: Json[] = [];
  for (const item of input) {
    if (!isObject(item)) continue;
    if (item.type === 'function_call') {
      messages.push({
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: stringOf(item.call_id ?? item.id),
            type: 'function',
            function: {
              name: stringOf(item.name),
              arguments: typeof item.arguments === 'string' ? item.arguments : JSON.stringify(item.arguments ?? {}),
            },
          },
        ],
      });
    } else if (item.type === 'function_call_output') {
      messages.push({
        role: 'tool',
        tool_call_id: stringOf(item.call_id),
        content: typeof item.output === 'string' ? item.output : JSON.stringify(item.output ?? ''),
      });
    } else if (typeof item.role === 'string') {
      messages.push({ role: item.role === 'developer' ? 'system' : item.role, content: textOf(item.content) });
    }
  }
  return messages;
}

/** Flat Responses-style function tools (`{type, name, parameters}`) → chat tools (`{type, function: {...}}`). */
export function nestTools(tools: unknown): unknown {
  if (!Array.isArray(tools)) return tools;
  return tools.map((tool: unknown) => {
    if (!isObject(tool) || tool.type !== 'function' || isObject(tool.function)) return tool;
    const { type, name, description, parameters, strict } = tool;
    return {
      type,
      function: {
        name,
        ...(description === undefined ? {} : { description }),
        ...(parameters === undefined ? {} : { parameters }),
        ...(strict === undefined ? {} : { strict }),
      },
    };
  });
}

/**
 * The seat lane accepts a chat body, a chat body with flat tools, or a Responses-style envelope (`input`,
 * `instructions`, flat function tools, `max_output_tokens`); the result is a chat-completions body. A missing model
 * becomes `gw-default`.
 */
export function toSeatChatBody(body: Json): Json {
  const model = typeof body.model === 'string' && body.model.length > 0 ? body.model : 'gw-default';
  if (Array.isArray(body.messages))
    return { ...body, model, ...(body.tools === undefined ? {} : { tools: nestTools(body.tools) }) };
  const chat: Json = {};
  for (const [key, value] of Object.entries(body)) if (!dropped.has(key)) chat[key] = value;
  const messages = inputToMessages(body.input);
  if (typeof body.instructions === 'string' && body.instructions.length > 0)
    messages.unshift({ role: 'system', content: body.instructions });
  return {
    ...chat,
    model,
    messages,
    ...(body.tools === undefined ? {} : { tools: nestTools(body.tools) }),
    ...(typeof body.max_output_tokens === 'number' ? { max_tokens: body.max_output_tokens } : {}),
  };
}
