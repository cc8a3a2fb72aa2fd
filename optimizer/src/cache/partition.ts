import type { OptimizerMetadata } from '@gw/contracts';
import { callerOwner, nonBlank } from '../http/caller-owner.js';

/**
 * The caller partition of the semantic cache (optimizer README, "Semantic cache"): tenant plus, in order, the gateway's
 * `cacheScope`, the attributed user, the team, or the gateway-stamped session. The aliases `userId` and `teamId` are
 * never read. Null: no partition, nothing stored. `authoritativeTenant` comes from a per-tenant bearer and beats
 * metadata.
 */
export function cachePartition(metadata: OptimizerMetadata | undefined, authoritativeTenant?: string): string | null {
  const { tenant, user, team } = callerOwner(metadata, authoritativeTenant);
  // The gateway folds the resolved route, the billing lane and the sharing rule into one scope: it alone decides.
  const scope = nonBlank(metadata?.cacheScope);
  if (scope) return `${tenant}\u0000scope\u0000${scope}`;
  if (user) return `${tenant}\u0000user\u0000${user}`;
  if (team) return `${tenant}\u0000team\u0000${team}`;
  const session = nonBlank(metadata?.gatewaySessionId);
  if (session) return `${tenant}\u0000session\u0000${session}`;
  return null;
}
