import type { ChatAssistantMessage, ChatMessage, ChatTextPart } from '../schemas/chat-completions.schema.js';
import type { MessagesBlockOut, MessagesTextBlockOut, MessagesTurnOut } from '../schemas/messages.types.js';
import { parseToolArguments } from '../parse-tool-arguments.js';
import { convertUserParts, textBlock } from './convert-user-content.js';

export interface ConvertedConversation {
  system: string | MessagesTextBlockOut[] | undefined;
  turns: MessagesTurnOut[];
}

/**
 * Chat messages → Messages `system` + turns. System and developer messages are hoisted into `system`
 * wherever they appear (Messages has no mid-conversation system turn); tool results become `tool_result`
 * blocks in a user turn; empty messages are dropped; consecutive same-role turns are merged, with tool
 * results first in a user turn as the Messages API requires.
 */
export function convertMessages(messages: readonly ChatMessage[]): ConvertedConversation {
  const instructions: (string | ChatTextPart[])[] = [];
  const turns: MessagesTurnOut[] = [];
  for (const message of messages) {
    switch (message.role) {
      case 'system':
      case 'developer':
        instructions.push(message.content);
        break;
      case 'user':
        appendTurn(turns, {
          role: 'user',
          content: typeof message.content === 'string' ? message.content : convertUserParts(message.content),
        });
        break;
      case 'assistant':
        appendTurn(turns, { role: 'assistant', content: assistantContent(message) });
        break;
      case 'tool':
        appendTurn(turns, {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: toolUseId(message.tool_call_id),
              content: toolResultContent(message.content),
            },
          ],
        });
        break;
    }
  }
  return { system: convertSystem(instructions), turns: turns.map(toolResultsFirst) };
}

/**
 * Messages tool ids must match `^[a-zA-Z0-9_-]+$`; some OpenAI-compatible models emit ids such as
 * `functions.get_weather:0`. The same rewrite applies to `tool_use.id` and `tool_result.tool_use_id`,
 * so pairs stay matched.
 */
export function toolUseId(id: string): string {
  const safe = id.replace(/[^a-zA-Z0-9_-]/g, '_');
  return safe === '' ? '_' : safe;
}

function convertSystem(
  instructions: readonly (string | ChatTextPart[])[],
): string | MessagesTextBlockOut[] | undefined {
  if (instructions.length === 0) return undefined;
  const [only] = instructions;
  if (instructions.length === 1 && typeof only === 'string') return only;
  const blocks: MessagesTextBlockOut[] = [];
  for (const content of instructions) {
    if (typeof content === 'string') {
      if (content !== '') blocks.push({ type: 'text', text: content });
    } else {
      for (const part of content) if (part.text !== '') blocks.push(textBlock(part));
    }
  }
  return blocks;
}

function assistantContent(message: ChatAssistantMessage): string | MessagesBlockOut[] {
  const toolCalls = message.tool_calls ?? [];
  if (typeof message.content === 'string' && toolCalls.length === 0) return message.content;
  const blocks: MessagesBlockOut[] = [];
  if (typeof message.content === 'string') {
    if (message.content !== '') blocks.push({ type: 'text', text: message.content });
  } else if (message.content) {
    for (const part of message.content) {
      const text = part.type === 'text' ? part.text : part.refusal;
      if (text !== '') blocks.push(part.type === 'text' ? textBlock(part) : { type: 'text', text });
    }
  } else if (message.refusal) {
    blocks.push({ type: 'text', text: message.refusal });
  }
  for (const call of toolCalls) {
    blocks.push({
      type: 'tool_use',
      id: toolUseId(call.id),
      name: call.function.name,
      input: parseToolArguments(call.function.arguments),
    });
  }
  return blocks;
}

function toolResultContent(content: string | ChatTextPart[]): string | MessagesTextBlockOut[] {
  if (typeof content === 'string') return content;
  return content.filter((part) => part.text !== '').map(textBlock);
}

function blocksOf(content: string | MessagesBlockOut[]): MessagesBlockOut[] {
  if (typeof content !== 'string') return content;
  return content === '' ? [] : [{ type: 'text', text: content }];
}

/**
 * Messages rejects empty content ("" or no blocks) in every message but a final assistant prefill, where
 * it means nothing: an empty message is dropped, and its neighbours, now of the same role, merge.
 */
function appendTurn(turns: MessagesTurnOut[], turn: MessagesTurnOut): void {
  if (turn.content.length === 0) return;
  const previous = turns.at(-1);
  if (previous?.role !== turn.role) {
    turns.push(turn);
    return;
  }
  turns[turns.length - 1] = { role: turn.role, content: [...blocksOf(previous.content), ...blocksOf(turn.content)] };
}

function toolResultsFirst(turn: MessagesTurnOut): MessagesTurnOut {
  if (turn.role !== 'user' || typeof turn.content === 'string') return turn;
  const results = turn.content.filter((block) => block.type === 'tool_result');
  if (results.length === 0 || results.length === turn.content.length) return turn;
  return { role: 'user', content: [...results, ...turn.content.filter((block) => block.type !== 'tool_result')] };
}
