import { z } from 'zod';
import { tokenCount, type Usage } from '../../providers/translate/usage.js';

/** What the gateway reads of the provider's events: a response's id, and its usage once it is done. */
export type ObservedEvent =
  | { kind: 'response.created'; responseId: string }
  | { kind: 'response.done'; responseId: string; usage: Usage | undefined }
  | null;

// Only the fields metering needs; everything else in the event is relayed untouched and never read.
const responseEvent = z.object({
  type: z.enum(['response.created', 'response.done']),
  response: z.object({
    id: z.string().optional(),
    usage: z
      .object({
        input_tokens: z.unknown(),
        output_tokens: z.unknown(),
        input_token_details: z.object({ cached_tokens: z.unknown() }).partial().nullish(),
      })
      .partial()
      .nullish(),
  }),
});

const createdMarker = Buffer.from('"response.created"');
const doneMarker = Buffer.from('"response.done"');

/**
 * Read a provider text frame for the two events that metering follows. Audio deltas make up most frames, so a
 * byte search decides first and only the rare response events are parsed.
 */
export function observeProviderFrame(frame: Buffer): ObservedEvent {
  const done = frame.includes(doneMarker);
  if (!done && !frame.includes(createdMarker)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(frame.toString('utf8'));
  } catch {
    return null;
  }
  const event = responseEvent.safeParse(parsed);
  if (!event.success) return null;
  const responseId = event.data.response.id ?? '';
  if (event.data.type === 'response.created') return { kind: 'response.created', responseId };
  const usage = event.data.response.usage;
  return {
    kind: 'response.done',
    responseId,
    usage: usage
      ? {
          inputTokens: tokenCount(usage.input_tokens),
          outputTokens: tokenCount(usage.output_tokens),
          cacheReadTokens: tokenCount(usage.input_token_details?.cached_tokens),
          cacheWriteTokens: 0,
        }
      : undefined,
  };
}
