-- Fleet mode: a key belongs to the tenant of the principal that minted it, and a tenant-bound principal
-- reaches only its tenant's keys. Null = a deployment-level key (every key minted before this column, and every key a
-- deployment principal mints), reached by deployment principals only.
ALTER TABLE gw_keys ADD COLUMN tenant text;
CREATE INDEX gw_keys_tenant ON gw_keys (tenant, created_at, id);
