/**
 * Metadata keys the gateway alone may set on optimizer calls. The optimizer scopes by them (tenant: cache
 * partitions, stash owners, the regression guard, holdout hashing; user and team: owners and arms) or reads them as
 * the gateway's word (billing mode, retrieval evidence, context window), so a client's `x-gw-metadata` spelling of
 * one is dropped rather than forwarded (spec 001 §2.1: the tenant scope is the gateway's; spec 000 §8).
 */
const gatewayOwnedKeys: ReadonlySet<string> = new Set([
  'tenant',
  'user',
  'team',
  'gatewaySessionId',
  'source',
  'billingMode',
  'clientCanRetrieve',
  'retrieveEvidence',
  'modelContextTokens',
  'capabilities',
]);

/** The caller's own attribution entries, without any key the gateway owns. */
export function clientAttribution(metadata: Readonly<Record<string, string>>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [key, value] of Object.entries(metadata)) if (!gatewayOwnedKeys.has(key)) kept[key] = value;
  return kept;
}
