import { z } from 'zod';

/**
 * Team policies: the
 * skills every developer of a team gets, and which gateway tools their connect CLI enables. Served to every client of
 * the team, so the write boundary refuses credential-shaped values like the desktop policy's.
 */
export const teamPolicyLimits = {
  maxBytes: 1024 * 1024,
  maxSkillBytes: 64 * 1024,
  maxSkills: 64,
  maxTeams: 500,
} as const;

/** The tool policy a team without one gets (`tools.defaulted: true`). */
export const defaultEnabledTools = ['gw_retrieve', 'gw_recall'] as const;

/** Applies to every team; a team's own entry overrides it (skills by name, tools as a whole). */
export const everyTeam = '*';

const skill = z.strictObject({
  name: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'lower-case letters, digits and dashes, at most 64')
    .describe('Skill id; unique within a team'),
  description: z.string().trim().max(1_024).default('').describe('When the assistant should use the skill'),
  content: z
    .string()
    .min(1)
    .refine(
      (text) => Buffer.byteLength(text) <= teamPolicyLimits.maxSkillBytes,
      `at most ${teamPolicyLimits.maxSkillBytes} bytes`,
    )
    .describe('The skill’s instructions (Markdown)'),
});

const toolName = z.string().regex(/^[A-Za-z0-9_.:-]{1,64}$/);
export const toolTier = z.enum(['auto', 'ask', 'deny']);

const tools = z.strictObject({
  enabled: z.array(toolName).max(64).describe('Tools the connect CLI enables for the team'),
  tiers: z
    .record(toolName, toolTier)
    .optional()
    .describe('Per tool: `auto` runs without asking, `ask` asks the developer, `deny` never runs'),
});

export const teamPolicy = z.strictObject({
  skills: z
    .array(skill)
    .max(teamPolicyLimits.maxSkills)
    .default([])
    .refine(
      (skills) => new Set(skills.map((entry) => entry.name)).size === skills.length,
      'skill names must be unique within a team',
    ),
  tools: tools
    .optional()
    .describe('Absent: the team follows `*`, else the default (gw_retrieve and gw_recall enabled)'),
});
export type TeamPolicy = z.infer<typeof teamPolicy>;

const teamName = z.string().min(1).max(200).describe('A team as keys name it, or `*` for every team');
export const teamPolicies = z
  .record(teamName, teamPolicy)
  .refine(
    (teams) => Object.keys(teams).length <= teamPolicyLimits.maxTeams,
    `at most ${teamPolicyLimits.maxTeams} teams`,
  );

export const teamPoliciesPutBody = z.strictObject({
  teams: teamPolicies.describe('Every team’s policy, replaced as a whole; `*` applies to every team'),
  expectedRevision: z
    .int()
    .min(0)
    .optional()
    .describe('Revision the caller last read; a stale value answers 409 and changes nothing'),
});

export const teamPoliciesResponse = z.object({
  teams: teamPolicies,
  revision: z.int().describe('0 until the first write; send as expectedRevision on PUT'),
  updatedAt: z.string().nullable(),
  updatedBy: z.string().nullable(),
});
export type TeamPoliciesView = z.infer<typeof teamPoliciesResponse>;
