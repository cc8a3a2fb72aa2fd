import { createHash } from 'node:crypto';
import { randomToken, sha256Hex, timingSafeEqualString, type Coord } from '@gw/platform';
import type { JWTPayload } from 'jose';
import type { IdTokenVerifier } from './id-token-verifier.js';
import type { IdpConfig, IdpConfigStore } from './idp-config.store.js';
import { DiscoveryFailure, type DiscoveryCache, type OidcProvider } from './oidc-discovery.js';
import { signInErrors } from './sign-in-error.js';

/** A sign-in in progress, kept in Coord (every replica sees it) until the callback claims it once. */
interface PendingFlow {
  nonce: string;
  verifier: string;
  binderHash: string;
  redirectUri: string;
  returnTo: string;
  issuer: string;
  clientId: string;
}

export interface StartedSignIn {
  authorizationUrl: string;
  /** Set as a short-lived HttpOnly cookie: the callback must come back to the browser that started. */
  binder: string;
}

export interface VerifiedSignIn {
  userName: string;
  displayName: string | null;
  subject: string;
  issuer: string;
  returnTo: string;
  config: IdpConfig;
}

export const signInFlowTtlMs = 10 * 60_000;
const exchangeTimeoutMs = 10_000;
const flowKey = (state: string) => `console-sso:flow:${sha256Hex(state)}`;
const claimKey = (state: string) => `console-sso:claimed:${sha256Hex(state)}`;
const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

export interface SignInFlowDeps {
  configs: IdpConfigStore;
  discovery: DiscoveryCache;
  verifier: IdTokenVerifier;
  coord: Coord;
  fetchImpl?: typeof fetch;
}

/**
 * The OpenID Connect authorization code flow with PKCE (S256), `state` and `nonce`, and an exact redirect URI. The
 * state is single-use across replicas (claimed with `setIfAbsent` before anything else), bound to the starting
 * browser by a cookie, and expires with the flow after ten minutes. An identity provider that cannot be reached at
 * any step answers 503; nothing is signed in.
 */
export class SignInFlow {
  constructor(private readonly deps: SignInFlowDeps) {}

  async start(input: { redirectUri: string; returnTo: string }): Promise<StartedSignIn> {
    const config = await this.deps.configs.read();
    if (!config) throw signInErrors.notConfigured();
    const provider = await this.provider(config);
    const state = randomToken(32);
    const binder = randomToken(32);
    const flow: PendingFlow = {
      nonce: randomToken(32),
      verifier: randomToken(48),
      binderHash: sha256Hex(binder),
      redirectUri: input.redirectUri,
      returnTo: input.returnTo,
      issuer: config.issuer,
      clientId: config.clientId,
    };
    await this.deps.coord.setValue(flowKey(state), JSON.stringify(flow), signInFlowTtlMs);
    const url = new URL(provider.authorizationEndpoint);
    for (const [name, value] of Object.entries({
      response_type: 'code',
      client_id: config.clientId,
      redirect_uri: input.redirectUri,
      scope: 'openid email profile',
      state,
      nonce: flow.nonce,
      code_challenge: s256(flow.verifier),
      code_challenge_method: 'S256',
    }))
      url.searchParams.set(name, value);
    return { authorizationUrl: url.href, binder };
  }

  async complete(input: {
    state: string | undefined;
    code: string | undefined;
    error: string | undefined;
    /** The `iss` the provider added to the redirect (RFC 9207), when it adds one. */
    issuer: string | undefined;
    binder: string | null;
  }): Promise<VerifiedSignIn> {
    if (!input.state) throw signInErrors.callback('state_missing');
    // Claim first: a replayed callback, or two racing on two replicas, finds the state already taken.
    if (!(await this.deps.coord.setIfAbsent(claimKey(input.state), '1', signInFlowTtlMs)))
      throw signInErrors.callback('state_replayed');
    const stored = await this.deps.coord.getValue(flowKey(input.state));
    await this.deps.coord.delete(flowKey(input.state));
    if (!stored) throw signInErrors.callback('state_unknown');
    const flow = JSON.parse(stored) as PendingFlow;
    if (!input.binder || !timingSafeEqualString(sha256Hex(input.binder), flow.binderHash))
      throw signInErrors.callback('browser_mismatch');
    // A mix-up attack sends the code of one provider to the callback of another: the answer names who issued it.
    if (input.issuer !== undefined && input.issuer !== flow.issuer) throw signInErrors.callback('issuer_mismatch');
    if (input.error) throw signInErrors.token('provider_refused', 'The identity provider did not sign you in.');
    if (!input.code) throw signInErrors.callback('code_missing');
    const config = await this.deps.configs.read();
    // The configuration changed while the browser was away: the flow belongs to the old one.
    if (!config || config.issuer !== flow.issuer || config.clientId !== flow.clientId)
      throw signInErrors.callback('configuration_changed');
    const provider = await this.provider(config);
    const idToken = await this.exchange(provider, config, flow, input.code);
    const claims = await this.deps.verifier.verify(idToken, { provider, clientId: config.clientId, nonce: flow.nonce });
    return { ...identityOf(claims, config), issuer: config.issuer, returnTo: flow.returnTo, config };
  }

  private async provider(config: IdpConfig): Promise<OidcProvider> {
    try {
      return await this.deps.discovery.get(config.issuer);
    } catch (error) {
      const detail = error instanceof DiscoveryFailure ? `: ${error.message}` : '';
      throw signInErrors.unavailable(`The identity provider cannot be used right now${detail}.`);
    }
  }

  /** The code for tokens at the token endpoint, with the PKCE verifier and the client's secret. */
  private async exchange(provider: OidcProvider, config: IdpConfig, flow: PendingFlow, code: string): Promise<string> {
    let secret: string;
    try {
      secret = this.deps.configs.clientSecret(config);
    } catch {
      // Sealed under a GW_KEYSTORE_KEY this process no longer holds: an operator must set the secret again.
      throw signInErrors.unavailable(
        'The stored client secret does not open under the current GW_KEYSTORE_KEY; set it again with PUT /admin/v1/sso.',
      );
    }
    const form = new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: flow.redirectUri,
      code_verifier: flow.verifier,
    });
    const headers: Record<string, string> = {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
    };
    if (provider.tokenAuthMethod === 'client_secret_post') {
      form.set('client_id', config.clientId);
      form.set('client_secret', secret);
    } else {
      // RFC 6749 2.3.1: each part form-encoded before the Basic encoding.
      const user = encodeURIComponent(config.clientId);
      headers.authorization = `Basic ${Buffer.from(`${user}:${encodeURIComponent(secret)}`).toString('base64')}`;
    }
    let response: Response;
    try {
      response = await (this.deps.fetchImpl ?? fetch)(provider.tokenEndpoint, {
        method: 'POST',
        headers,
        body: form.toString(),
        redirect: 'error',
        signal: AbortSignal.timeout(exchangeTimeoutMs),
      });
    } catch {
      throw signInErrors.unavailable('The identity provider’s token endpoint cannot be reached.');
    }
    if (response.status >= 500 || response.status === 429)
      throw signInErrors.unavailable(`The identity provider’s token endpoint answered ${response.status}.`);
    const body = (await response.json().catch(() => null)) as { id_token?: unknown } | null;
    if (!response.ok) throw signInErrors.token('code_refused', 'The identity provider refused the sign-in code.');
    if (typeof body?.id_token !== 'string')
      throw signInErrors.token('id_token_missing', 'The identity provider returned no ID token.');
    return body.id_token;
  }
}

function identityOf(claims: JWTPayload, config: IdpConfig): Omit<VerifiedSignIn, 'issuer' | 'returnTo' | 'config'> {
  const { username, displayName } = config.claimMapping;
  const userName = claims[username];
  if (typeof userName !== 'string' || userName.trim() === '')
    throw signInErrors.token('username_claim_missing', `The ID token carries no ${username} claim.`);
  // An address the provider says it has not verified cannot stand for a directory user.
  if (username === 'email' && claims.email_verified === false)
    throw signInErrors.token('email_unverified', 'The identity provider has not verified this e-mail address.');
  const shown = claims[displayName];
  return {
    userName: userName.trim(),
    displayName: typeof shown === 'string' ? shown : null,
    subject: claims.sub as string,
  };
}
