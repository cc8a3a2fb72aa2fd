import { randomBytes, randomInt } from 'node:crypto';
import type { Coord, Keyring } from '@gw/platform';
import type { GrantOwner } from './mcp-grant.store.js';
import type { ConnectorGrant } from './oauth-client.js';

/** One authorization in progress, from `authorize` to the callback. */
export interface PendingFlow {
  owner: GrantOwner;
  connector: string;
  resource: string;
  tokenEndpoint: string;
  clientId: string;
  redirectUri: string;
  verifier: string;
  /** The CLI's loopback listener, and the SHA-256 of its nonce that the redirect carries back. */
  loopback?: { port: number; nonceHash: string };
}

interface HeldClaim {
  user: string;
  connector: string;
  grant: ConnectorGrant;
}

const ttlMs = 10 * 60_000;
// Unambiguous capitals and digits: a claim code is read off a page and typed.
const claimAlphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const claimCodeLength = 12;

/**
 * Authorizations in flight, in Coord so that any replica can answer the callback and the completion: the flow by its
 * `state`, then the finished grant by a one-time claim code until the developer's CLI claims it. Both are sealed under
 * the keystore key (the PKCE verifier and the bearer never sit in Redis in the clear) and used at most once.
 */
export class McpOAuthFlows {
  constructor(
    private readonly coord: Coord,
    private readonly keyring: Keyring,
  ) {}

  async open(flow: PendingFlow): Promise<string> {
    const state = randomBytes(24).toString('base64url');
    await this.coord.setValue(
      `mcp-oauth:flow:${state}`,
      this.keyring.encrypt(JSON.stringify(flow), `mcp-oauth-flow:${state}`),
      ttlMs,
    );
    return state;
  }

  /** The flow for a callback's `state`, once; null when unknown, expired or already used. */
  async take(state: string): Promise<PendingFlow | null> {
    if (!/^[A-Za-z0-9_-]{32}$/.test(state)) return null;
    const sealed = await this.coord.getValue(`mcp-oauth:flow:${state}`);
    if (sealed === null || !(await this.coord.setIfAbsent(`mcp-oauth:flow-used:${state}`, '1', ttlMs))) return null;
    await this.coord.delete(`mcp-oauth:flow:${state}`);
    return JSON.parse(this.keyring.decryptString(sealed, `mcp-oauth-flow:${state}`)) as PendingFlow;
  }

  async holdClaim(claim: HeldClaim): Promise<string> {
    const code = Array.from({ length: claimCodeLength }, () => claimAlphabet[randomInt(claimAlphabet.length)]).join('');
    await this.coord.setValue(
      `mcp-oauth:claim:${code}`,
      this.keyring.encrypt(JSON.stringify(claim), `mcp-oauth-claim:${code}`),
      ttlMs,
    );
    return code;
  }

  /** The grant a claim code holds, once, for the developer and connector that started it; null otherwise. */
  async redeem(code: string, user: string, connector: string): Promise<ConnectorGrant | null> {
    const normalized = code.toUpperCase();
    const sealed = await this.coord.getValue(`mcp-oauth:claim:${normalized}`);
    if (sealed === null) return null;
    const claim = JSON.parse(this.keyring.decryptString(sealed, `mcp-oauth-claim:${normalized}`)) as HeldClaim;
    // Another developer's code spends nothing: the one who started the flow can still claim it.
    if (claim.user.toLowerCase() !== user.toLowerCase() || claim.connector !== connector) return null;
    if (!(await this.coord.setIfAbsent(`mcp-oauth:claim-used:${normalized}`, '1', ttlMs))) return null;
    await this.coord.delete(`mcp-oauth:claim:${normalized}`);
    return claim.grant;
  }
}
