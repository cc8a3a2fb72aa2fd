import type { GatewayConfig } from '../../config.js';

/** The organization hub's token lane, when configured. */
export interface OrgHubSettings {
  /** This gateway's exact `/mcp/org` URL: the one audience a token may carry. */
  resource: string;
  /** `/.well-known/oauth-protected-resource` on the public URL, named in every 401's `WWW-Authenticate`. */
  metadataUrl: string;
  issuer: string;
  /** Null: discovered from the issuer's OpenID configuration. */
  jwksUrl: string | null;
  organizationClaim: string;
}

type HubConfig = Pick<
  GatewayConfig,
  'GW_PUBLIC_URL' | 'GW_ORG_HUB_ISSUER' | 'GW_ORG_HUB_JWKS_URL' | 'GW_ORG_HUB_ORG_CLAIM'
>;

/** Null when the hub's token lane is off; the config check guarantees the public URL whenever the issuer is set. */
export function orgHubSettingsOf(config: HubConfig): OrgHubSettings | null {
  if (!config.GW_ORG_HUB_ISSUER || !config.GW_PUBLIC_URL) return null;
  const base = config.GW_PUBLIC_URL.replace(/\/+$/, '');
  return {
    resource: `${base}/mcp/org`,
    metadataUrl: `${base}/.well-known/oauth-protected-resource`,
    issuer: config.GW_ORG_HUB_ISSUER,
    jwksUrl: config.GW_ORG_HUB_JWKS_URL ?? null,
    organizationClaim: config.GW_ORG_HUB_ORG_CLAIM,
  };
}
