import { z } from 'zod';
import { describeIssues } from '@gw/platform';
import { interfaceVersion } from '../../shared/interface-version.js';
import { effectiveTeamPolicy } from '../../policies/effective-team-policy.js';
import type { TeamPolicyStore } from '../../policies/team-policy.store.js';
import type { McpToolbox } from '../mcp-dispatch.js';
import type { ToolResult } from '../mcp-tool-call.js';
import type { McpHubMirror } from '../hub/mcp-hub-mirror.js';
import type { McpGrantStore } from '../oauth/mcp-grant.store.js';
import { relayTool } from '../hub/relay-tool.js';

const readOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

/**
 * The organization hub's tools (the contract's "an organization hub at /mcp/org"; its tool set is not shown, so it is
 * ours): the organization's shared skills, as the caller's team receives them at `/connect/policy`, for assistants
 * that run in a provider's cloud and cannot read the developer's machine.
 */
export const orgTools = [
  {
    name: 'gw_org_skills',
    title: 'List the organization’s skills',
    description:
      'List the shared skills your organization publishes for your team: each skill’s name and what it is for. Read one with gw_org_skill.',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    annotations: readOnly,
  },
  {
    name: 'gw_org_skill',
    title: 'Read one organization skill',
    description:
      'Read the full instructions of one shared skill of your organization, by the name gw_org_skills lists.',
    inputSchema: {
      type: 'object',
      properties: {
        name: {
          type: 'string',
          minLength: 1,
          maxLength: 128,
          description: 'The skill’s name, as gw_org_skills lists it.',
        },
      },
      required: ['name'],
      additionalProperties: false,
    },
    annotations: readOnly,
  },
] as const;

const skillArguments = z.object({ name: z.string().min(1).max(128) });

export const orgServerInfo = { name: 'gw-org-hub', title: 'gw organization hub', version: interfaceVersion } as const;
const instructions =
  'Your organization publishes shared skills through this hub. Call gw_org_skills to see which skills your team has, and gw_org_skill with a name to read one before following it.';

const text = (value: string) => ({ type: 'text' as const, text: value });
const toolError = (message: string): ToolResult => ({ content: [text(message)], isError: true });

/**
 * The hub's toolbox for one member's team: the skills tools, then every tool the mirror holds from the organization's
 * remote MCP servers (`<server>__<tool>`, relayed). The skills store or a remote server failing is a tool error the
 * model can read, never a 5xx.
 */
export interface OrgCaller {
  team: string;
  /** The member's address; null for a key that names no developer (their connector grants are none). */
  user: string | null;
}

export function orgToolbox(
  caller: OrgCaller,
  teamPolicies: TeamPolicyStore,
  mirror: McpHubMirror | null,
  grants: McpGrantStore | null,
): McpToolbox {
  const { team } = caller;
  const skills = async () => effectiveTeamPolicy((await teamPolicies.read()).teams, team).skills;
  const mirrored = mirror?.mirrored() ?? [];
  return {
    serverInfo: orgServerInfo,
    instructions,
    tools: [...orgTools, ...mirrored.map(({ hubName, tool }) => ({ ...tool, name: hubName }))],
    call: async (name, input) => {
      const relayed = mirrored.find((entry) => entry.hubName === name);
      if (relayed && mirror) {
        const bearer =
          relayed.authorized && caller.user !== null && grants
            ? await grants.bearer({ kind: 'user', user: caller.user }, relayed.server.name)
            : null;
        return relayTool(mirror, relayed, input, bearer);
      }
      let available;
      try {
        available = await skills();
      } catch {
        return toolError(`${name}: the organization’s skills cannot be read right now; try again shortly.`);
      }
      if (name === 'gw_org_skills') {
        if (available.length === 0) return { content: [text(`Your team (${team}) has no shared skills.`)] };
        return { content: [text(available.map((skill) => `- ${skill.name}: ${skill.description}`).join('\n'))] };
      }
      const parsed = skillArguments.safeParse(input ?? {});
      if (!parsed.success)
        return toolError(`gw_org_skill: invalid arguments: ${describeIssues('arguments', parsed.error.issues)}`);
      const skill = available.find((entry) => entry.name === parsed.data.name);
      if (!skill)
        return toolError(
          `gw_org_skill: your team has no skill named ${JSON.stringify(parsed.data.name)}; gw_org_skills lists the ones it has.`,
        );
      return { content: [text(skill.content)] };
    },
  };
}
