/** Messages shapes the translators emit (requests to Anthropic-family providers, answers to clients). */

export interface CacheControl {
  type: 'ephemeral';
  ttl?: '5m' | '1h';
}

export interface MessagesTextBlockOut {
  type: 'text';
  text: string;
  cache_control?: CacheControl;
}
export type MessagesImageMediaType = 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp';

export interface MessagesImageBlockOut {
  type: 'image';
  source: { type: 'base64'; media_type: MessagesImageMediaType; data: string } | { type: 'url'; url: string };
  cache_control?: CacheControl;
}
export interface MessagesDocumentBlockOut {
  type: 'document';
  source: { type: 'base64'; media_type: 'application/pdf'; data: string } | { type: 'url'; url: string };
  title?: string;
}
export interface MessagesToolUseBlockOut {
  type: 'tool_use';
  id: string;
  name: string;
  input: Record<string, unknown>;
}
export interface MessagesToolResultBlockOut {
  type: 'tool_result';
  tool_use_id: string;
  content: string | MessagesTextBlockOut[];
}
export type MessagesBlockOut =
  | MessagesTextBlockOut
  | MessagesImageBlockOut
  | MessagesDocumentBlockOut
  | MessagesToolUseBlockOut
  | MessagesToolResultBlockOut;

export interface MessagesTurnOut {
  role: 'user' | 'assistant';
  content: string | MessagesBlockOut[];
}

export interface MessagesToolOut {
  name: string;
  description?: string;
  input_schema: { type: 'object'; [keyword: string]: unknown };
  strict?: boolean;
}

export type MessagesToolChoiceOut =
  | { type: 'auto' | 'any'; disable_parallel_tool_use?: boolean }
  | { type: 'tool'; name: string; disable_parallel_tool_use?: boolean }
  | { type: 'none' };

export type MessagesThinkingOut = { type: 'enabled'; budget_tokens: number } | { type: 'disabled' };

export interface MessagesRequestOut {
  model: string;
  messages: MessagesTurnOut[];
  system?: string | MessagesTextBlockOut[];
  max_tokens: number;
  stop_sequences?: string[];
  temperature?: number;
  top_p?: number;
  tools?: MessagesToolOut[];
  tool_choice?: MessagesToolChoiceOut;
  thinking?: MessagesThinkingOut;
  metadata?: { user_id: string };
  stream?: boolean;
}

export type MessagesStopReason = 'end_turn' | 'max_tokens' | 'stop_sequence' | 'tool_use' | 'refusal';

export interface MessagesUsageOut {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

export interface MessagesResponseOut {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: (MessagesTextBlockOut | MessagesToolUseBlockOut)[];
  stop_reason: MessagesStopReason | null;
  stop_sequence: null;
  usage: MessagesUsageOut;
}

export type MessagesStreamEventOut =
  | { type: 'message_start'; message: Omit<MessagesResponseOut, 'content'> & { content: [] } }
  | { type: 'content_block_start'; index: number; content_block: MessagesTextBlockOut | MessagesToolUseBlockOut }
  | {
      type: 'content_block_delta';
      index: number;
      delta: { type: 'text_delta'; text: string } | { type: 'input_json_delta'; partial_json: string };
    }
  | { type: 'content_block_stop'; index: number }
  | {
      type: 'message_delta';
      delta: { stop_reason: MessagesStopReason | null; stop_sequence: null };
      usage: MessagesUsageOut;
    }
  | { type: 'message_stop' }
  | MessagesErrorBodyOut;

/** Messages error envelope. */
export interface MessagesErrorBodyOut {
  type: 'error';
  error: { type: string; message: string };
}
