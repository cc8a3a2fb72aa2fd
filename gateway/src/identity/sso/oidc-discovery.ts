import type { Clock } from '@gw/platform';
import { assertSafeUpstreamUrl } from '../../providers/ssrf-guard.js';

/** What console sign-in uses of an issuer's OpenID configuration, checked. */
export interface OidcProvider {
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  jwksUri: string;
  /** Signing algorithms the ID token may use: what the provider advertises, asymmetric ones only. */
  signingAlgorithms: string[];
  /** `client_secret_basic` unless the provider supports only `client_secret_post`. */
  tokenAuthMethod: 'client_secret_basic' | 'client_secret_post';
}

/** Why discovery failed: `unreachable` (network, timeout, 5xx) or `invalid` (an answer that cannot be used). */
export class DiscoveryFailure extends Error {
  constructor(
    readonly reason: 'unreachable' | 'invalid',
    message: string,
  ) {
    super(message);
    this.name = 'DiscoveryFailure';
  }
}

const timeoutMs = 5_000;
// Symmetric algorithms would make the client secret a signing key, and `none` signs nothing.
const asymmetric = new Set(['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA']);

interface DiscoveryDocument {
  issuer?: unknown;
  authorization_endpoint?: unknown;
  token_endpoint?: unknown;
  jwks_uri?: unknown;
  id_token_signing_alg_values_supported?: unknown;
  response_types_supported?: unknown;
  code_challenge_methods_supported?: unknown;
  token_endpoint_auth_methods_supported?: unknown;
}

const strings = (value: unknown): string[] | null =>
  Array.isArray(value) && value.every((entry) => typeof entry === 'string') ? value : null;

async function guarded(url: string, field: string, allowPrivate: boolean): Promise<string> {
  try {
    return (await assertSafeUpstreamUrl(url, { allowPrivate })).href;
  } catch (error) {
    const detail = error instanceof Error ? error.message.replace(/^baseUrl/, field) : `${field} is not allowed`;
    throw new DiscoveryFailure('invalid', detail.replace(/baseUrl/g, field));
  }
}

/**
 * Fetch `<issuer>/.well-known/openid-configuration` through the SSRF guard (https and public addresses unless
 * GW_ALLOW_PRIVATE_UPSTREAMS), without following redirects, and check it is this issuer's and fit for the
 * authorization code flow with PKCE. Every endpoint it names passes the same guard.
 */
export async function discoverProvider(
  issuer: string,
  options: { allowPrivate: boolean; fetchImpl?: typeof fetch },
): Promise<OidcProvider> {
  await guarded(issuer, 'issuer', options.allowPrivate);
  const url = `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
  let document: DiscoveryDocument;
  try {
    const response = await (options.fetchImpl ?? fetch)(url, {
      redirect: 'error',
      signal: AbortSignal.timeout(timeoutMs),
      headers: { accept: 'application/json' },
    });
    if (response.status >= 500 || response.status === 429)
      throw new DiscoveryFailure('unreachable', `the discovery document answered ${response.status}`);
    if (!response.ok) throw new DiscoveryFailure('invalid', `the discovery document answered ${response.status}`);
    document = (await response.json()) as DiscoveryDocument;
  } catch (error) {
    if (error instanceof DiscoveryFailure) throw error;
    throw new DiscoveryFailure('unreachable', 'the discovery document could not be fetched');
  }
  return checkDocument(document, issuer, options.allowPrivate);
}

async function checkDocument(document: DiscoveryDocument, issuer: string, allowPrivate: boolean) {
  const invalid = (message: string) => new DiscoveryFailure('invalid', message);
  if (typeof document !== 'object' || document === null) throw invalid('the discovery document is not a JSON object');
  // Another issuer's configuration would make its keys verify someone else's tokens.
  if (document.issuer !== issuer) throw invalid('the discovery document names another issuer');
  const endpoints: Record<string, unknown> = {
    authorization_endpoint: document.authorization_endpoint,
    token_endpoint: document.token_endpoint,
    jwks_uri: document.jwks_uri,
  };
  for (const [field, value] of Object.entries(endpoints))
    if (typeof value !== 'string') throw invalid(`the discovery document has no ${field}`);
  const responseTypes = strings(document.response_types_supported);
  if (responseTypes && !responseTypes.includes('code')) throw invalid('the provider does not offer the code flow');
  const challengeMethods = strings(document.code_challenge_methods_supported);
  if (challengeMethods && !challengeMethods.includes('S256')) throw invalid('the provider does not offer PKCE (S256)');
  const advertised = strings(document.id_token_signing_alg_values_supported) ?? ['RS256'];
  const signingAlgorithms = advertised.filter((algorithm) => asymmetric.has(algorithm));
  if (signingAlgorithms.length === 0) throw invalid('the provider signs ID tokens with no asymmetric algorithm');
  const authMethods = strings(document.token_endpoint_auth_methods_supported) ?? ['client_secret_basic'];
  const tokenAuthMethod =
    !authMethods.includes('client_secret_basic') && authMethods.includes('client_secret_post')
      ? 'client_secret_post'
      : 'client_secret_basic';
  return {
    issuer,
    authorizationEndpoint: await guarded(
      endpoints.authorization_endpoint as string,
      'authorization_endpoint',
      allowPrivate,
    ),
    tokenEndpoint: await guarded(endpoints.token_endpoint as string, 'token_endpoint', allowPrivate),
    jwksUri: await guarded(endpoints.jwks_uri as string, 'jwks_uri', allowPrivate),
    signingAlgorithms,
    tokenAuthMethod,
  } satisfies OidcProvider;
}

/** Discovery remembered per issuer for ten minutes, so each sign-in does not refetch it; a failure is never kept. */
export class DiscoveryCache {
  private readonly entries = new Map<string, { at: number; provider: OidcProvider }>();

  constructor(
    private readonly clock: Clock,
    private readonly options: { allowPrivate: boolean; fetchImpl?: typeof fetch },
  ) {}

  async get(issuer: string): Promise<OidcProvider> {
    const cached = this.entries.get(issuer);
    if (cached && this.clock.now() - cached.at < 10 * 60_000) return cached.provider;
    const provider = await discoverProvider(issuer, this.options);
    this.entries.set(issuer, { at: this.clock.now(), provider });
    return provider;
  }

  forget(): void {
    this.entries.clear();
  }
}
