import type { KubeObject } from '../kube/kube-api.js';

/**
 * Two resources that claim the same gateway record (two ProviderKeys for one slug, two RoutingConfigs for one
 * Gateway): the oldest wins, by creation time then name, so the answer never flips. Returns the
 * winner when `object` loses.
 */
export function conflictWinner(
  object: KubeObject,
  peers: readonly KubeObject[],
  claimOf: (candidate: KubeObject) => string | null,
): KubeObject | null {
  const claim = claimOf(object);
  if (claim === null) return null;
  const rivals = peers.filter(
    (peer) =>
      peer.metadata.uid !== object.metadata.uid &&
      peer.metadata.namespace === object.metadata.namespace &&
      !peer.metadata.deletionTimestamp &&
      claimOf(peer) === claim,
  );
  const order = (candidate: KubeObject): string =>
    `${candidate.metadata.creationTimestamp ?? ''}|${candidate.metadata.name}`;
  const winner = [object, ...rivals].sort((left, right) => order(left).localeCompare(order(right)))[0];
  return winner === undefined || winner === object ? null : winner;
}
