import { policyQueryPrefix, type OsqueryDistributedWrite } from '@gw/contracts';

export interface AnsweredPolicy {
  policyName: string;
  /** true pass (the query returned a row), false fail (it ran and returned none), null unknown (it failed to run). */
  passing: boolean | null;
}

/**
 * The policy results in an osquery distributed write. A policy passes when its query returns at least one row, fails
 * when it runs and returns none, and is unknown when osquery reports a non-zero status (a missing table, a timeout).
 * Only the checks this host was asked are taken: a name the service did not ask for, or no longer has, is ignored.
 */
export function answeredPolicies(write: OsqueryDistributedWrite, asked: ReadonlySet<string>): AnsweredPolicy[] {
  const answered: AnsweredPolicy[] = [];
  for (const [queryName, rows] of Object.entries(write.queries)) {
    if (!queryName.startsWith(policyQueryPrefix)) continue;
    const policyName = queryName.slice(policyQueryPrefix.length);
    if (!asked.has(policyName)) continue;
    const status = write.statuses?.[queryName] ?? 0;
    answered.push({ policyName, passing: status !== 0 ? null : (rows?.length ?? 0) > 0 });
  }
  return answered;
}
