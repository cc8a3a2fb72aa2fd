-- Provider instances: the credential is an AES-256-GCM envelope under GW_KEYSTORE_KEY, never plaintext.
CREATE TABLE gw_providers (
  slug text PRIMARY KEY,
  type text NOT NULL,
  api_key_enc text,
  base_url text,
  api_version text,
  updated_by text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Routing documents (default provider, routing config, aliases, model pricing), one JSON row per name.
CREATE TABLE gw_routing (
  name text PRIMARY KEY,
  document jsonb NOT NULL,
  revision integer NOT NULL DEFAULT 1,
  updated_by text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
