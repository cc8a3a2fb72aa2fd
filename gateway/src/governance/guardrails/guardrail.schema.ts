import { z } from 'zod';

const hookName = z.string().regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'lower-case letters, digits and dashes, at most 63');

/** One operator-configured guardrail hook, as an administrator writes it (the bearer is write-only). */
export const guardrailHookInput = z.strictObject({
  name: hookName.describe('Unique name, shown in denials and metrics'),
  url: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .describe('The hook endpoint; https and public unless GW_ALLOW_PRIVATE_UPSTREAMS'),
  timeoutMs: z.number().int().min(10).max(10_000).default(1_000).describe('How long a call waits for this hook'),
  failMode: z
    .enum(['open', 'closed'])
    .default('open')
    .describe(
      'open: a hook that times out or errors lets the call through; closed: refuses it with 503 guardrail_unavailable',
    ),
  sendContent: z
    .boolean()
    .default(false)
    .describe('Send the request body too; only honoured while the deployment content mode is full'),
  endpoints: z
    .array(z.string().regex(/^\/v1\//))
    .max(32)
    .optional()
    .describe('Only calls to these /v1 endpoints; all when absent'),
  bearer: z
    .string()
    .min(16)
    .max(4096)
    .nullable()
    .optional()
    .describe('Sent as Authorization: Bearer; write-only, kept encrypted; null removes it, absent keeps it'),
});

export const guardrailsPutBody = z
  .strictObject({ hooks: z.array(guardrailHookInput).max(8) })
  .refine(
    (body) => new Set(body.hooks.map((hook) => hook.name)).size === body.hooks.length,
    'hook names must be unique',
  );

/** A hook as stored and as read back: the bearer never leaves the gateway, only whether one is set. */
export const guardrailHookView = z.object({
  name: z.string(),
  url: z.string(),
  timeoutMs: z.number().int(),
  failMode: z.enum(['open', 'closed']),
  sendContent: z.boolean(),
  endpoints: z.array(z.string()).optional(),
  hasBearer: z.boolean(),
});

export const guardrailsResponse = z.object({
  hooks: z.array(guardrailHookView),
  contentMode: z
    .enum(['off', 'full'])
    .describe('Content reaches a hook only while this is full and the hook asks for it'),
  updatedAt: z.string().nullable(),
});

export type GuardrailHookInput = z.infer<typeof guardrailHookInput>;
export type GuardrailHookView = z.infer<typeof guardrailHookView>;

/** A stored hook: the view plus the sealed bearer. */
export interface StoredGuardrailHook extends GuardrailHookView {
  sealedBearer: string | null;
}

/**
 * What a hook is sent: content-free facts of the call, plus the body only when allowed. What it answers: allow, or
 * deny with a reason the caller is shown (400 or 403, default 403).
 */
export const guardrailVerdict = z.union([
  z.looseObject({ action: z.literal('allow') }),
  z.looseObject({
    action: z.literal('deny'),
    reason: z.string().max(500).optional(),
    status: z.union([z.literal(400), z.literal(403)]).optional(),
  }),
]);

export type GuardrailVerdict = z.infer<typeof guardrailVerdict>;

export interface GuardrailCall {
  requestId: string;
  endpoint: string;
  model: string | null;
  stream: boolean;
  user: string | null;
  team: string;
  keyId: string;
  keyType: 'client' | 'service';
  /** Present only when the hook asked for content and the content mode allows it. */
  body?: unknown;
}
