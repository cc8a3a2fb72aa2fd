import { readFile } from 'node:fs/promises';
import { z } from 'zod';

/**
 * The failing-policies webhook's configuration: a JSON file an operator mounts (a Kubernetes Secret, say) and names
 * in `GW_FLEET_WEBHOOK_CONFIG`. It is read on every delivery, so a rotated secret or a changed map applies without a
 * restart, and a file that vanishes or breaks stops remediation at once instead of running on a stale copy.
 */

const checkName = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, 'an evidence check name');
const maxCooldownSeconds = 7 * 24 * 3600;

export const webhookConfigSchema = z.strictObject({
  secret: z
    .string()
    .min(32, 'at least 32 characters')
    .max(512)
    .describe('What the fleet server sends as its bearer or `?token=`'),
  cooldownSeconds: z
    .int()
    .min(60)
    .max(maxCooldownSeconds)
    .default(3600)
    .describe('How long a host is left alone after one of its remediations was queued'),
  policies: z
    .record(z.string().min(1).max(256), checkName)
    .refine((map) => Object.keys(map).length <= 500, 'at most 500 mapped policies')
    .describe('Fleet policy (its name, or its id as a string) to the evidence check whose script remediates it'),
});
export type WebhookConfig = z.infer<typeof webhookConfigSchema>;

export type WebhookConfigState =
  { kind: 'ready'; config: WebhookConfig } | { kind: 'absent' } | { kind: 'unreadable'; reason: string };

// The file holds a secret: cap what is read, and never echo its content in a reason.
const maxConfigBytes = 256 * 1024;

/** Never throws: every failure is a state the route answers 503 for. The reason names the problem, not the content. */
export async function readWebhookConfig(path: string | undefined): Promise<WebhookConfigState> {
  if (!path) return { kind: 'absent' };
  let text: string;
  try {
    const bytes = await readFile(path);
    if (bytes.length > maxConfigBytes) return { kind: 'unreadable', reason: `larger than ${maxConfigBytes} bytes` };
    text = bytes.toString('utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT'
      ? { kind: 'absent' }
      : { kind: 'unreadable', reason: `cannot be read (${code ?? 'error'})` };
  }
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    return { kind: 'unreadable', reason: 'is not JSON' };
  }
  const parsed = webhookConfigSchema.safeParse(document);
  if (!parsed.success)
    return {
      kind: 'unreadable',
      reason: `is invalid at ${parsed.error.issues.map((issue) => issue.path.join('.') || '(root)').join(', ')}`,
    };
  return { kind: 'ready', config: parsed.data };
}
