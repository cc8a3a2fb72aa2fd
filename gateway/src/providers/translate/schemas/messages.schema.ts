import { z } from 'zod';

/**
 * Minimal Messages wire schemas: only the fields the translators read. Objects are loose so fields we
 * do not model never fail a parse; what crosses families is built field by field.
 */

const jsonObject = z.record(z.string(), z.unknown());

export const messagesTextBlockSchema = z.looseObject({ type: z.literal('text'), text: z.string() });

const imageSourceSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('base64'), media_type: z.string(), data: z.string() }),
  z.looseObject({ type: z.literal('url'), url: z.string() }),
]);
export const messagesImageBlockSchema = z.looseObject({ type: z.literal('image'), source: imageSourceSchema });

export const messagesDocumentBlockSchema = z.looseObject({
  type: z.literal('document'),
  source: z.discriminatedUnion('type', [
    z.looseObject({ type: z.literal('base64'), media_type: z.string(), data: z.string() }),
    z.looseObject({ type: z.literal('url'), url: z.string() }),
    z.looseObject({ type: z.literal('text'), data: z.string() }),
  ]),
  title: z.string().nullish(),
});

export const messagesToolUseBlockSchema = z.looseObject({
  type: z.literal('tool_use'),
  id: z.string(),
  name: z.string(),
  input: z.unknown(),
});

export const messagesToolResultBlockSchema = z.looseObject({
  type: z.literal('tool_result'),
  tool_use_id: z.string(),
  content: z.union([z.string(), z.array(z.looseObject({ type: z.string() }))]).nullish(),
  is_error: z.boolean().nullish(),
});

/** Blocks are checked one by one against the schemas above, so an unknown block type gets a precise error. */
const anyBlockSchema = z.looseObject({ type: z.string() });
export type MessagesAnyBlock = z.infer<typeof anyBlockSchema>;

export const messagesTurnSchema = z.looseObject({
  role: z.enum(['user', 'assistant']),
  content: z.union([z.string(), z.array(anyBlockSchema)]),
});
export type MessagesTurn = z.infer<typeof messagesTurnSchema>;

export const messagesToolSchema = z.looseObject({
  /** Absent or `custom` for client tools; anything else is a provider-hosted or provider-defined tool. */
  type: z.string().nullish(),
  name: z.string(),
  description: z.string().nullish(),
  input_schema: jsonObject.nullish(),
  strict: z.boolean().nullish(),
});
export type MessagesTool = z.infer<typeof messagesToolSchema>;

export const messagesToolChoiceSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('auto'), disable_parallel_tool_use: z.boolean().nullish() }),
  z.looseObject({ type: z.literal('any'), disable_parallel_tool_use: z.boolean().nullish() }),
  z.looseObject({ type: z.literal('tool'), name: z.string(), disable_parallel_tool_use: z.boolean().nullish() }),
  z.looseObject({ type: z.literal('none') }),
]);
export type MessagesToolChoice = z.infer<typeof messagesToolChoiceSchema>;

export const messagesThinkingSchema = z.looseObject({
  type: z.string(),
  budget_tokens: z.number().int().nullish(),
});

export const messagesRequestSchema = z.looseObject({
  model: z.string().min(1),
  messages: z.array(messagesTurnSchema),
  system: z.union([z.string(), z.array(messagesTextBlockSchema)]).nullish(),
  max_tokens: z.number().int().positive(),
  stop_sequences: z.array(z.string()).nullish(),
  temperature: z.number().nullish(),
  top_p: z.number().nullish(),
  stream: z.boolean().nullish(),
  tools: z.array(messagesToolSchema).nullish(),
  tool_choice: messagesToolChoiceSchema.nullish(),
  thinking: messagesThinkingSchema.nullish(),
  output_config: z.looseObject({ effort: z.string().nullish() }).nullish(),
  metadata: z.looseObject({ user_id: z.string().nullish() }).nullish(),
});
export type MessagesRequest = z.infer<typeof messagesRequestSchema>;

export const messagesUsageSchema = z.looseObject({
  input_tokens: z.number().nullish(),
  output_tokens: z.number().nullish(),
  cache_read_input_tokens: z.number().nullish(),
  cache_creation_input_tokens: z.number().nullish(),
  output_tokens_details: z.looseObject({ thinking_tokens: z.number().nullish() }).nullish(),
});
export type MessagesUsageWire = z.infer<typeof messagesUsageSchema>;

export const messagesResponseSchema = z.looseObject({
  id: z.string(),
  model: z.string().nullish(),
  content: z.array(anyBlockSchema),
  stop_reason: z.string().nullish(),
  usage: messagesUsageSchema.nullish(),
});

export const messagesThinkingBlockSchema = z.looseObject({ type: z.literal('thinking'), thinking: z.string() });

/** Stream events, one schema per `type`, parsed after a switch on the type. */
export const messagesStreamEventSchemas = {
  message_start: z.looseObject({
    message: z.looseObject({ id: z.string(), model: z.string().nullish(), usage: messagesUsageSchema.nullish() }),
  }),
  content_block_start: z.looseObject({ index: z.number().int().nonnegative(), content_block: anyBlockSchema }),
  content_block_delta: z.looseObject({
    index: z.number().int().nonnegative(),
    delta: z.looseObject({
      type: z.string(),
      text: z.string().nullish(),
      partial_json: z.string().nullish(),
      thinking: z.string().nullish(),
    }),
  }),
  message_delta: z.looseObject({
    delta: z.looseObject({ stop_reason: z.string().nullish() }),
    usage: messagesUsageSchema.nullish(),
  }),
  error: z.looseObject({ error: z.looseObject({ type: z.string().nullish(), message: z.string().nullish() }) }),
};

/** Messages error body. */
export const messagesErrorSchema = messagesStreamEventSchemas.error;
