import { defaultEnabledTools, everyTeam, type TeamPoliciesView, type TeamPolicy } from './team-policy.schema.js';

export interface EffectiveTeamPolicy {
  skills: TeamPolicy['skills'];
  tools: { enabled: string[]; tiers?: Record<string, 'auto' | 'ask' | 'deny'>; defaulted?: true };
}

/**
 * What a developer of `team` gets: `*` skills plus the team's own (a team skill of the same name wins), and the team's
 * tool policy, else `*`'s, else the default with `defaulted: true`.
 */
export function effectiveTeamPolicy(teams: TeamPoliciesView['teams'], team: string): EffectiveTeamPolicy {
  const shared = Object.hasOwn(teams, everyTeam) ? teams[everyTeam] : undefined;
  const own = team !== everyTeam && Object.hasOwn(teams, team) ? teams[team] : undefined;
  const skills = new Map((shared?.skills ?? []).map((skill) => [skill.name, skill]));
  for (const skill of own?.skills ?? []) skills.set(skill.name, skill);
  const tools = own?.tools ?? shared?.tools;
  return {
    skills: [...skills.values()],
    tools: tools
      ? { enabled: [...tools.enabled], ...(tools.tiers ? { tiers: { ...tools.tiers } } : {}) }
      : { enabled: [...defaultEnabledTools], defaulted: true },
  };
}
