import { stringifyToolInput } from '../parse-tool-arguments.js';
import { parseWire } from '../parse-wire.js';
import type { ChatMessageOut, ChatToolCallOut, ChatUserPartOut } from '../schemas/chat-completions.types.js';
import {
  messagesDocumentBlockSchema,
  messagesImageBlockSchema,
  messagesTextBlockSchema,
  messagesToolResultBlockSchema,
  messagesToolUseBlockSchema,
  type MessagesAnyBlock,
  type MessagesTurn,
} from '../schemas/messages.schema.js';
import { TranslationError } from '../translation-error.js';

/** Thinking is bound to the model that produced it (signed); it cannot be replayed to another family. */
const droppedBlockTypes = new Set(['thinking', 'redacted_thinking']);

/** Messages `system` → one system message; several blocks read as paragraphs. */
export function convertSystem(system: string | { text: string }[] | null | undefined): ChatMessageOut[] {
  if (system === null || system === undefined) return [];
  const text = typeof system === 'string' ? system : system.map((block) => block.text).join('\n\n');
  return text === '' ? [] : [{ role: 'system', content: text }];
}

/**
 * Messages turns → chat messages. A user turn's `tool_result` blocks become `role: "tool"` messages placed
 * first (OpenAI requires them right after the assistant's tool calls), followed by a user message with the
 * rest of the turn; images inside tool results move to that user message, as tool messages carry text only.
 * A failed tool result (`is_error`) reads "Error: <result>".
 */
export function convertTurns(turns: readonly MessagesTurn[]): ChatMessageOut[] {
  const out: ChatMessageOut[] = [];
  for (const turn of turns) {
    if (turn.role === 'assistant') out.push(assistantMessage(turn.content));
    else out.push(...userMessages(turn.content));
  }
  return out;
}

function assistantMessage(content: MessagesTurn['content']): ChatMessageOut {
  if (typeof content === 'string') return { role: 'assistant', content };
  let text = '';
  const toolCalls: ChatToolCallOut[] = [];
  for (const block of content) {
    if (block.type === 'text')
      text += parseWire(messagesTextBlockSchema, block, 'invalid_request', 'A text block').text;
    else if (block.type === 'tool_use') {
      const toolUse = parseWire(messagesToolUseBlockSchema, block, 'invalid_request', 'A tool_use block');
      toolCalls.push({
        id: toolUse.id,
        type: 'function',
        function: { name: toolUse.name, arguments: stringifyToolInput(toolUse.input) },
      });
    } else if (!droppedBlockTypes.has(block.type)) throw unsupportedBlock(block);
  }
  if (toolCalls.length === 0) return { role: 'assistant', content: text };
  return { role: 'assistant', content: text === '' ? null : text, tool_calls: toolCalls };
}

function userMessages(content: MessagesTurn['content']): ChatMessageOut[] {
  if (typeof content === 'string') return [{ role: 'user', content }];
  const toolMessages: ChatMessageOut[] = [];
  const carriedParts: ChatUserPartOut[] = [];
  const parts: ChatUserPartOut[] = [];
  for (const block of content) {
    if (block.type === 'tool_result') {
      const result = parseWire(messagesToolResultBlockSchema, block, 'invalid_request', 'A tool_result block');
      const { text, images } = toolResultContent(result.content);
      toolMessages.push({
        role: 'tool',
        tool_call_id: result.tool_use_id,
        content: result.is_error === true ? failedToolText(text) : text,
      });
      carriedParts.push(...images);
    } else if (!droppedBlockTypes.has(block.type)) {
      parts.push(userPart(block));
    }
  }
  const userParts = [...carriedParts, ...parts];
  if (userParts.length === 0) return toolMessages;
  const [only] = userParts;
  const userContent = userParts.length === 1 && only?.type === 'text' ? only.text : userParts;
  return [...toolMessages, { role: 'user', content: userContent }];
}

/**
 * Chat tool messages have no failure flag, so `is_error` is folded into the text the model reads (as the
 * sglang and Bifrost Anthropic adapters do): without it a failed call reads like a successful one.
 */
function failedToolText(text: string): string {
  return text === '' ? 'Error' : `Error: ${text}`;
}

function toolResultContent(content: string | MessagesAnyBlock[] | null | undefined): {
  text: string;
  images: ChatUserPartOut[];
} {
  if (content === null || content === undefined) return { text: '', images: [] };
  if (typeof content === 'string') return { text: content, images: [] };
  const texts: string[] = [];
  const images: ChatUserPartOut[] = [];
  for (const block of content) {
    const part = userPart(block);
    if (part.type === 'text') texts.push(part.text);
    else images.push(part);
  }
  return { text: texts.join('\n'), images };
}

function userPart(block: MessagesAnyBlock): ChatUserPartOut {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: parseWire(messagesTextBlockSchema, block, 'invalid_request', 'A text block').text };
    case 'image': {
      const { source } = parseWire(messagesImageBlockSchema, block, 'invalid_request', 'An image block');
      return {
        type: 'image_url',
        image_url: { url: source.type === 'url' ? source.url : `data:${source.media_type};base64,${source.data}` },
      };
    }
    case 'document':
      return documentPart(block);
    default:
      throw unsupportedBlock(block);
  }
}

function documentPart(block: MessagesAnyBlock): ChatUserPartOut {
  const document = parseWire(messagesDocumentBlockSchema, block, 'invalid_request', 'A document block');
  const { source } = document;
  if (source.type === 'text') return { type: 'text', text: source.data };
  if (source.type === 'base64') {
    const filename = document.title ?? (source.media_type === 'application/pdf' ? 'document.pdf' : 'document');
    return { type: 'file', file: { filename, file_data: `data:${source.media_type};base64,${source.data}` } };
  }
  throw new TranslationError(
    'unsupported_feature',
    'Document URLs cannot be sent to an OpenAI-family provider; send the document as base64.',
  );
}

function unsupportedBlock(block: MessagesAnyBlock): TranslationError {
  return new TranslationError(
    'unsupported_feature',
    `Content block type "${block.type}" cannot be sent to an OpenAI-family provider.`,
  );
}
