import type { ChatToolChoiceOut, ChatToolOut } from '../schemas/chat-completions.types.js';
import type { MessagesTool, MessagesToolChoice } from '../schemas/messages.schema.js';
import { TranslationError } from '../translation-error.js';

/**
 * Client tools → function tools. Provider-hosted and provider-defined tools (`web_search_…`, `bash_…`,
 * `text_editor_…`, `computer_…`) are run or schema'd by the Anthropic side and cannot cross: a clear 400.
 */
export function convertTools(tools: readonly MessagesTool[]): ChatToolOut[] {
  return tools.map((tool) => {
    if (tool.type && tool.type !== 'custom') {
      throw new TranslationError(
        'unsupported_feature',
        `Tool type "${tool.type}" is specific to Anthropic-family providers and cannot be sent to an OpenAI-family provider.`,
      );
    }
    const definition: ChatToolOut['function'] = {
      name: tool.name,
      parameters: tool.input_schema ?? { type: 'object', properties: {} },
    };
    if (tool.description) definition.description = tool.description;
    if (tool.strict === true) definition.strict = true;
    return { type: 'function', function: definition };
  });
}

/** Messages `any` is OpenAI `required`; `disable_parallel_tool_use` is the inverse of `parallel_tool_calls`. */
export function convertToolChoice(choice: MessagesToolChoice | null | undefined): {
  toolChoice?: ChatToolChoiceOut;
  parallelToolCalls?: false;
} {
  if (!choice) return {};
  const parallel =
    'disable_parallel_tool_use' in choice && choice.disable_parallel_tool_use === true
      ? { parallelToolCalls: false as const }
      : {};
  switch (choice.type) {
    case 'auto':
      return { toolChoice: 'auto', ...parallel };
    case 'any':
      return { toolChoice: 'required', ...parallel };
    case 'tool':
      return { toolChoice: { type: 'function', function: { name: choice.name } }, ...parallel };
    case 'none':
      return { toolChoice: 'none' };
  }
}
