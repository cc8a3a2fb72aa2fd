import { gatewayError } from '../../errors.js';
import { findCredential } from '../credential-shape.js';
import {
  teamPoliciesPutBody,
  teamPoliciesResponse,
  teamPolicyLimits,
  type TeamPoliciesView,
} from '../team-policy.schema.js';
import type { TeamPolicyStore } from '../team-policy.store.js';
import { defineOperation, type AdminOperation } from '../../admin/operation.js';

/** The write boundary: bounded size, and no credential-shaped value anywhere (skills are served to every developer). */
function assertServableTeams(teams: TeamPoliciesView['teams']): void {
  if (Buffer.byteLength(JSON.stringify(teams)) > teamPolicyLimits.maxBytes)
    throw gatewayError('invalid_request', `body.teams is larger than ${teamPolicyLimits.maxBytes} bytes`);
  const finding = findCredential(teams, 'teams');
  if (finding) {
    throw gatewayError(
      'policy_carries_credential',
      `body.${finding.path} holds a credential-shaped value (${finding.kind}). Team skills are served to every developer of the team and never carry secrets.`,
    );
  }
}

/** Team skills and tool policy. */
export function teamPolicyOperations({ policies }: { policies: TeamPolicyStore }): AdminOperation[] {
  return [
    defineOperation({
      id: 'teamPolicies.get',
      summary: 'Read every team’s skills and tool policy (`*` applies to every team)',
      method: 'GET',
      capability: 'config:read',
      legacy: [{ path: '/admin/team-skills' }],
      v1: { path: '/admin/v1/policies/teams' },
      xScope: 'deployment',
      response: teamPoliciesResponse,
      handler: async () => policies.read(),
    }),
    defineOperation({
      id: 'teamPolicies.put',
      summary:
        'Replace every team’s skills and tool policy; 400 policy_carries_credential on a credential-shaped value, 409 on a stale expectedRevision',
      method: 'PUT',
      capability: 'desktopconfig:write',
      legacy: [{ path: '/admin/team-skills' }],
      v1: { path: '/admin/v1/policies/teams' },
      xScope: 'deployment',
      body: teamPoliciesPutBody,
      response: teamPoliciesResponse,
      handler: async ({ body, principal }) => {
        assertServableTeams(body.teams);
        return policies.replace(body.teams, body.expectedRevision, principal.actor);
      },
    }),
  ];
}
