import type { Clock, Db } from '@gw/platform';
import { readPolicyDocument, replacePolicyDocument } from './policy-documents.js';
import { teamPolicies, type TeamPoliciesView } from './team-policy.schema.js';

const documentName = 'teams';
const unset: TeamPoliciesView = { teams: {}, revision: 0, updatedAt: null, updatedBy: null };

/** Team policies, one revisioned document (`gw_policies` row `teams`); read fresh, they are not on the request path. */
export class TeamPolicyStore {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async read(): Promise<TeamPoliciesView> {
    const row = await readPolicyDocument(this.db, documentName);
    if (!row) return unset;
    return {
      teams: teamPolicies.parse((row.document as { teams?: unknown }).teams ?? {}),
      revision: row.revision,
      updatedAt: row.updatedAt,
      updatedBy: row.updatedBy,
    };
  }

  /** Replaces every team's policy; 409 on a stale `expectedRevision`. The caller has validated the document. */
  async replace(
    teams: TeamPoliciesView['teams'],
    expectedRevision: number | undefined,
    actor: string,
  ): Promise<TeamPoliciesView> {
    await replacePolicyDocument(this.db, {
      name: documentName,
      label: 'team policy document',
      document: { teams },
      expectedRevision,
      actor,
      at: new Date(this.clock.now()),
    });
    return this.read();
  }
}
