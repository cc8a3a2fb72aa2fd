-- Authorizations of remote MCP servers (the organization hub's connectors, the contract /connect/mcp-oauth/*
-- connectors/authorize and revoke): one grant per owner (a developer, or the hub itself) and connector, the bearer
-- sealed under the keystore key. Never returned by any route.
CREATE TABLE gw_mcp_grants (
  owner text NOT NULL,
  connector text NOT NULL,
  sealed text NOT NULL,
  expires_at timestamptz,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (owner, connector)
);
