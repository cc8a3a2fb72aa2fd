import { z } from 'zod';

const groupName = z.string().trim().min(1).max(256);
const teamName = z.string().trim().min(1).max(128);

/** `PUT /admin/scim/settings` and `/admin/v1/sso/scim`. */
export const scimSettingsPutBody = z.strictObject({
  bearerToken: z
    .string()
    .min(16, 'the SCIM bearer must be at least 16 characters')
    .max(1024)
    .regex(/^[\x21-\x7e]+$/, 'the SCIM bearer is printable ASCII without spaces')
    .optional()
    .describe(
      'The bearer the identity provider sends on /scim/v2/*; only its SHA-256 hash is stored. Omit to keep the current one',
    ),
  adminGroup: groupName
    .nullable()
    .optional()
    .describe('Members of this identity-provider group are gateway administrators; null clears it'),
  groupTeamMap: z
    .record(groupName, teamName)
    .refine((map) => Object.keys(map).length <= 500, 'at most 500 groups may map to teams')
    .optional()
    .describe(
      'Identity-provider group name → gateway team; a user takes the team of the first of their groups (by name) that maps',
    ),
});

export const scimSettingsResponse = z.object({
  configured: z.boolean().describe('A SCIM bearer is set, so /scim/v2/* accepts requests'),
  adminGroup: z.string().nullable(),
  groupTeamMap: z.record(z.string(), z.string()),
  updatedAt: z.string().nullable(),
});

export type ScimSettingsPut = z.infer<typeof scimSettingsPutBody>;
export type ScimSettingsView = z.infer<typeof scimSettingsResponse>;

/** What the SCIM surface needs on each request, and what team and admin mapping derive from. */
export interface ScimSettings {
  bearerHash: string | null;
  adminGroup: string | null;
  groupTeamMap: Readonly<Record<string, string>>;
  updatedAt: string | null;
}
