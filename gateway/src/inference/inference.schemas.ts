import { z } from 'zod';
import { modelId } from '@gw/contracts/management';

// Minimal wire schemas (CONVENTIONS.md, vercel/ai): only what the gateway relies on; every other field passes
// through untouched. Message arrays are not deep-validated here: the provider (or the translator) owns that.
const model = modelId.describe('Model id, `<provider>/<model>`, or an alias (printable ASCII, at most 256 characters)');

export const chatCompletionBody = z.looseObject({
  model,
  messages: z.array(z.unknown()).min(1),
  stream: z.boolean().optional(),
});

export const messagesBody = z.looseObject({
  model,
  messages: z.array(z.unknown()).min(1),
  max_tokens: z.number().int().min(1),
  stream: z.boolean().optional(),
});

export const countTokensBody = z.looseObject({
  model,
  messages: z.array(z.unknown()),
});

// Exactly these rules, additional properties allowed.
export const completionBody = z.looseObject({
  model,
  prompt: z.union([z.string(), z.array(z.string())]),
  max_tokens: z.number().int().min(1).optional(),
  temperature: z.number().min(0).max(2).optional(),
  stream: z.boolean().default(false),
});

export const embeddingBody = z.looseObject({
  model,
  input: z.union([z.string(), z.array(z.string()), z.array(z.number()), z.array(z.array(z.number()))]),
  encoding_format: z.enum(['float', 'base64']).optional(),
});

export const countTokensResponse = z.object({ input_tokens: z.number().int().min(0) });
export const modelListResponse = z.object({
  object: z.literal('list'),
  data: z.array(z.looseObject({ id: z.string(), object: z.literal('model'), owned_by: z.string() })),
});
