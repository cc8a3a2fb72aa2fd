import { z } from 'zod';

/** The kinds a seat can be told to run. */
export const directiveKinds = ['reapply_config', 'remint', 'revert', 'revert_tool', 'update'] as const;
export const directiveKind = z.enum(directiveKinds);
export type DirectiveKind = z.infer<typeof directiveKind>;

/** A client that sends no `x-gw-directive-kinds` runs the three original kinds. */
export const originalDirectiveKinds: readonly DirectiveKind[] = ['reapply_config', 'remint', 'revert'];

export const directiveResult = z.enum(['ok', 'failed']);
export type DirectiveResult = z.infer<typeof directiveResult>;

const toolName = z
  .string()
  .regex(/^[A-Za-z0-9_.:@/-]{1,128}$/)
  .describe('The tool a `revert_tool` directive reverts');

export const directiveQueueBody = z
  .strictObject({
    user: z
      .string()
      .trim()
      .min(1)
      .max(320)
      .describe('The developer whose seat runs the directive (their e-mail address, any case)'),
    kind: directiveKind,
    tool: toolName.optional(),
    tenant: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe(
        'Fleet mode, deployment principals only: the tenant of the seat (a tenant-bound principal queues for its own tenant)',
      ),
  })
  .refine((body) => (body.kind === 'revert_tool') === (body.tool !== undefined), {
    message: 'tool is required for revert_tool and refused for every other kind',
    path: ['tool'],
  });

export const directiveRecord = z.object({
  id: z.string(),
  tenant: z.string().nullable().describe('Fleet mode: the seat’s tenant; null for the deployment'),
  user: z.string().describe('The seat: the developer’s address, lower-cased'),
  kind: directiveKind,
  tool: z.string().nullable(),
  status: z.enum(['queued', 'delivered', 'closed']).describe('queued → delivered (re-delivered until acked) → closed'),
  result: directiveResult.nullable(),
  deliveries: z.number().int(),
  createdBy: z.string(),
  createdAt: z.string(),
  deliveredAt: z.string().nullable(),
  closedAt: z.string().nullable(),
});
export type DirectiveRecord = z.infer<typeof directiveRecord>;

export const connectDirectiveResponse = z
  .object({ directive: z.object({ id: z.string(), kind: directiveKind, tool: z.string().optional() }).optional() })
  .describe('The oldest open directive of a kind the client runs, or `{}`');

export const directiveAckBody = z.strictObject({
  id: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/, 'a directive id'),
  result: directiveResult,
});
export const directiveAckResponse = z.object({
  status: z.literal('ok'),
  id: z.string(),
  result: directiveResult,
  offboarded: z.boolean().describe('A `revert` acked ok marks the seat offboarded'),
});
