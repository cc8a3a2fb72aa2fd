/** Chat-completions shapes the translators emit (requests to OpenAI-family providers, answers to clients). */

export interface ChatTextPartOut {
  type: 'text';
  text: string;
}
export interface ChatImagePartOut {
  type: 'image_url';
  image_url: { url: string };
}
export interface ChatFilePartOut {
  type: 'file';
  file: { file_data: string; filename: string };
}
export type ChatUserPartOut = ChatTextPartOut | ChatImagePartOut | ChatFilePartOut;

export interface ChatToolCallOut {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export type ChatMessageOut =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | ChatUserPartOut[] }
  | { role: 'assistant'; content: string | null; tool_calls?: ChatToolCallOut[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface ChatToolOut {
  type: 'function';
  function: { name: string; description?: string; parameters: Record<string, unknown>; strict?: boolean };
}

export type ChatToolChoiceOut = 'auto' | 'none' | 'required' | { type: 'function'; function: { name: string } };

export interface ChatCompletionRequestOut {
  model: string;
  messages: ChatMessageOut[];
  max_tokens?: number;
  max_completion_tokens?: number;
  stop?: string[];
  temperature?: number;
  top_p?: number;
  tools?: ChatToolOut[];
  tool_choice?: ChatToolChoiceOut;
  parallel_tool_calls?: boolean;
  reasoning_effort?: 'low' | 'medium' | 'high';
  user?: string;
  stream?: boolean;
  stream_options?: { include_usage: boolean };
}

export type ChatFinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter';

export interface ChatUsageOut {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  /** `cache_write_tokens` keeps Anthropic's raw cache-creation count, which OpenAI-family usage has no slot for. */
  prompt_tokens_details: { cached_tokens: number; cache_write_tokens: number };
  completion_tokens_details?: { reasoning_tokens: number };
}

export interface ChatCompletionOut {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: [
    {
      index: 0;
      message: {
        role: 'assistant';
        content: string | null;
        refusal: null;
        tool_calls?: ChatToolCallOut[];
        /** Thinking text, under the field name DeepSeek, vLLM and LiteLLM clients already read. */
        reasoning_content?: string;
      };
      logprobs: null;
      finish_reason: ChatFinishReason | null;
    },
  ];
  usage?: ChatUsageOut;
}

export interface ChatToolCallDeltaOut {
  index: number;
  id?: string;
  type?: 'function';
  function: { name?: string; arguments: string };
}

export interface ChatCompletionChunkOut {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  choices: {
    index: 0;
    delta: {
      role?: 'assistant';
      content?: string;
      reasoning_content?: string;
      tool_calls?: ChatToolCallDeltaOut[];
    };
    logprobs: null;
    finish_reason: ChatFinishReason | null;
  }[];
  usage?: ChatUsageOut;
}

/** OpenAI error envelope. */
export interface ChatErrorBodyOut {
  error: { message: string; type: string; param: null; code: string | null };
}
