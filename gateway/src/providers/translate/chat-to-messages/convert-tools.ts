import type { ChatTool, ChatToolChoice } from '../schemas/chat-completions.schema.js';
import type { MessagesToolChoiceOut, MessagesToolOut } from '../schemas/messages.types.js';

export function convertTools(tools: readonly ChatTool[]): MessagesToolOut[] {
  return tools.map(({ function: definition }) => {
    const tool: MessagesToolOut = { name: definition.name, input_schema: inputSchema(definition.parameters) };
    if (definition.description) tool.description = definition.description;
    if (definition.strict === true) tool.strict = true;
    return tool;
  });
}

/**
 * Messages requires an object schema with `type: "object"`; OpenAI allows omitting parameters or their
 * `type` (function parameters are always an object there too).
 */
function inputSchema(parameters: Record<string, unknown> | null | undefined): MessagesToolOut['input_schema'] {
  if (!parameters) return { type: 'object', properties: {} };
  const { type: _type, ...schema } = parameters;
  return { type: 'object', ...schema };
}

/**
 * `tool_choice` + `parallel_tool_calls` → Messages `tool_choice`. OpenAI's `required` is Messages `any`;
 * `parallel_tool_calls: false` becomes `disable_parallel_tool_use: true`, on an explicit `auto` when the
 * client named no choice.
 */
export function convertToolChoice(
  choice: ChatToolChoice | null | undefined,
  parallelToolCalls: boolean | null | undefined,
): MessagesToolChoiceOut | undefined {
  const disableParallel = parallelToolCalls === false;
  const converted = baseChoice(choice, disableParallel);
  if (!converted || converted.type === 'none' || !disableParallel) return converted;
  return { ...converted, disable_parallel_tool_use: true };
}

function baseChoice(
  choice: ChatToolChoice | null | undefined,
  disableParallel: boolean,
): MessagesToolChoiceOut | undefined {
  switch (choice) {
    case null:
    case undefined:
      return disableParallel ? { type: 'auto' } : undefined;
    case 'auto':
      return { type: 'auto' };
    case 'none':
      return { type: 'none' };
    case 'required':
      return { type: 'any' };
    default:
      return { type: 'tool', name: choice.function.name };
  }
}
