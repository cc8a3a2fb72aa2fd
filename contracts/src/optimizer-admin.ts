import { z } from 'zod';

/**
 * `POST /admin/optimizer/purge`: drop stashed originals (the reversible stash's memory and durable tiers). One user's
 * rows (GDPR erase, a departing developer), one tenant's, or everything; an empty body purges nothing, so a mistaken
 * call cannot wipe the stash.
 */
export const optimizerPurgeRequestSchema = z
  .union([
    z.strictObject({ all: z.literal(true).describe('Purge every stashed original of every tenant.') }),
    z.strictObject({
      user: z
        .string()
        .min(1)
        .max(320)
        .describe('Purge this user’s stashed originals (as the gateway names users: their address).'),
      tenant: z.string().min(1).max(200).optional().describe('Only within this tenant; every tenant when absent.'),
    }),
    z.strictObject({ tenant: z.string().min(1).max(200).describe('Purge every stashed original of this tenant.') }),
  ])
  .describe('What to purge: `{all: true}`, `{user, tenant?}` or `{tenant}`.');

export const optimizerPurgeResponseSchema = z.object({
  purged: z.object({
    memory: z.number().int().nonnegative().describe('Entries dropped from this replica’s memory tier.'),
    durable: z.number().int().nonnegative().describe('Rows deleted from the durable tier (every replica reads it).'),
  }),
});

export type OptimizerPurgeRequest = z.infer<typeof optimizerPurgeRequestSchema>;
export type OptimizerPurgeResponse = z.infer<typeof optimizerPurgeResponseSchema>;
