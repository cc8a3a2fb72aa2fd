import { z } from 'zod';

/**
 * Minimal chat-completions wire schemas: only the fields the translators read (vercel/ai style). Objects
 * are loose so fields we do not model never fail a parse; what crosses families is built field by field.
 */

const jsonObject = z.record(z.string(), z.unknown());

/**
 * Anthropic prompt-caching hint some OpenAI-format clients attach (LiteLLM, OpenRouter conventions);
 * carried over when crossing to a Messages provider. A malformed hint is dropped, not an error.
 */
const cacheControlSchema = z
  .object({ type: z.literal('ephemeral'), ttl: z.enum(['5m', '1h']).optional() })
  .optional()
  .catch(undefined);

export const chatTextPartSchema = z.looseObject({
  type: z.literal('text'),
  text: z.string(),
  cache_control: cacheControlSchema,
});

const imageUrlPartSchema = z.looseObject({
  type: z.literal('image_url'),
  image_url: z.looseObject({ url: z.string() }),
  cache_control: cacheControlSchema,
});

const filePartSchema = z.looseObject({
  type: z.literal('file'),
  file: z.looseObject({
    file_data: z.string().optional(),
    file_id: z.string().optional(),
    filename: z.string().optional(),
  }),
});

const audioPartSchema = z.looseObject({ type: z.literal('input_audio') });
const refusalPartSchema = z.looseObject({ type: z.literal('refusal'), refusal: z.string() });

export const chatUserPartSchema = z.discriminatedUnion('type', [
  chatTextPartSchema,
  imageUrlPartSchema,
  filePartSchema,
  audioPartSchema,
]);
export type ChatUserPart = z.infer<typeof chatUserPartSchema>;
export type ChatTextPart = z.infer<typeof chatTextPartSchema>;

const textContentSchema = z.union([z.string(), z.array(chatTextPartSchema)]);

export const chatToolCallSchema = z.looseObject({
  id: z.string(),
  type: z.literal('function').optional(),
  function: z.looseObject({ name: z.string(), arguments: z.string().nullish() }),
});

const instructionMessageSchema = <R extends 'system' | 'developer'>(role: R) =>
  z.looseObject({ role: z.literal(role), content: textContentSchema });

const chatUserMessageSchema = z.looseObject({
  role: z.literal('user'),
  content: z.union([z.string(), z.array(chatUserPartSchema)]),
});

const chatAssistantMessageSchema = z.looseObject({
  role: z.literal('assistant'),
  content: z
    .union([z.string(), z.array(z.discriminatedUnion('type', [chatTextPartSchema, refusalPartSchema]))])
    .nullish(),
  refusal: z.string().nullish(),
  tool_calls: z.array(chatToolCallSchema).nullish(),
});

const chatToolMessageSchema = z.looseObject({
  role: z.literal('tool'),
  tool_call_id: z.string(),
  content: textContentSchema,
});

export const chatMessageSchema = z.discriminatedUnion('role', [
  instructionMessageSchema('system'),
  instructionMessageSchema('developer'),
  chatUserMessageSchema,
  chatAssistantMessageSchema,
  chatToolMessageSchema,
]);
export type ChatMessage = z.infer<typeof chatMessageSchema>;
export type ChatAssistantMessage = z.infer<typeof chatAssistantMessageSchema>;

export const chatToolSchema = z.looseObject({
  type: z.literal('function'),
  function: z.looseObject({
    name: z.string(),
    description: z.string().nullish(),
    parameters: jsonObject.nullish(),
    strict: z.boolean().nullish(),
  }),
});
export type ChatTool = z.infer<typeof chatToolSchema>;

export const chatToolChoiceSchema = z.union([
  z.enum(['auto', 'none', 'required']),
  z.looseObject({ type: z.literal('function'), function: z.looseObject({ name: z.string() }) }),
]);
export type ChatToolChoice = z.infer<typeof chatToolChoiceSchema>;

export const reasoningEffortSchema = z.enum(['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max']);
export type ReasoningEffort = z.infer<typeof reasoningEffortSchema>;

export const chatCompletionRequestSchema = z.looseObject({
  model: z.string().min(1),
  messages: z.array(chatMessageSchema).min(1),
  max_tokens: z.number().int().positive().nullish(),
  max_completion_tokens: z.number().int().positive().nullish(),
  stop: z.union([z.string(), z.array(z.string())]).nullish(),
  temperature: z.number().nullish(),
  top_p: z.number().nullish(),
  n: z.number().int().nullish(),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().nullish() }).nullish(),
  tools: z.array(chatToolSchema).nullish(),
  tool_choice: chatToolChoiceSchema.nullish(),
  parallel_tool_calls: z.boolean().nullish(),
  reasoning_effort: reasoningEffortSchema.nullish(),
  user: z.string().nullish(),
  metadata: z.looseObject({ user: z.string().optional() }).nullish(),
});
export type ChatCompletionRequest = z.infer<typeof chatCompletionRequestSchema>;

const usageSchema = z.looseObject({
  prompt_tokens: z.number().nullish(),
  completion_tokens: z.number().nullish(),
  prompt_tokens_details: z
    .looseObject({ cached_tokens: z.number().nullish(), cache_write_tokens: z.number().nullish() })
    .nullish(),
  completion_tokens_details: z.looseObject({ reasoning_tokens: z.number().nullish() }).nullish(),
});
export const chatUsageSchema = usageSchema;
export type ChatUsageWire = z.infer<typeof usageSchema>;

export const chatCompletionSchema = z.looseObject({
  id: z.string(),
  model: z.string().nullish(),
  choices: z.array(
    z.looseObject({
      message: z.looseObject({
        content: z.string().nullish(),
        refusal: z.string().nullish(),
        tool_calls: z.array(chatToolCallSchema).nullish(),
      }),
      finish_reason: z.string().nullish(),
    }),
  ),
  usage: usageSchema.nullish(),
});

const toolCallDeltaSchema = z.looseObject({
  index: z.number().int().nonnegative(),
  id: z.string().nullish(),
  function: z.looseObject({ name: z.string().nullish(), arguments: z.string().nullish() }).nullish(),
});
export type ChatToolCallDelta = z.infer<typeof toolCallDeltaSchema>;

export const chatCompletionChunkSchema = z.looseObject({
  id: z.string(),
  model: z.string().nullish(),
  choices: z.array(
    z.looseObject({
      delta: z
        .looseObject({
          content: z.string().nullish(),
          refusal: z.string().nullish(),
          tool_calls: z.array(toolCallDeltaSchema).nullish(),
        })
        .nullish(),
      finish_reason: z.string().nullish(),
    }),
  ),
  usage: usageSchema.nullish(),
});
export type ChatCompletionChunkWire = z.infer<typeof chatCompletionChunkSchema>;

/** OpenAI error envelope, as a provider sends it (in a JSON error body or inside a stream). */
export const chatErrorSchema = z.looseObject({
  error: z.looseObject({
    message: z.string().nullish(),
    type: z.string().nullish(),
    code: z.union([z.string(), z.number()]).nullish(),
  }),
});
