-- Caps and budgets are keyed by the address the way keys, SCIM and seats compare it: case-insensitively. An address
-- whose cap row has a single spelling is folded to its lower-case form. Two spellings of one address are a conflict
-- only an administrator can resolve (which limits win is a decision, not a merge): both rows stay, the conflict is
-- recorded in gw_address_conflicts (reported by /admin/health and logged when the caps load) and as an audit entry.
-- Setting the address's cap (PATCH /admin/user-caps/<address>) or replacing the map resolves it.

-- A webhook URL is sealed bound to the spelling it was set for; a folded row keeps that spelling here to unseal it.
ALTER TABLE gw_user_caps ADD COLUMN webhook_sealed_for text;

CREATE TABLE gw_address_conflicts (
  scope text NOT NULL,
  address text NOT NULL,
  spellings text[] NOT NULL,
  detected_at timestamptz NOT NULL,
  PRIMARY KEY (scope, address)
);

INSERT INTO gw_address_conflicts (scope, address, spellings, detected_at)
SELECT 'user-caps', lower(user_id), array_agg(user_id ORDER BY user_id), now()
FROM gw_user_caps
GROUP BY lower(user_id)
HAVING count(*) > 1;

INSERT INTO gw_audit_events (id, created_at, category, action, actor, target, subject_user, outcome, details)
SELECT 'migration-040-' || md5(address), now(), 'admin', 'userCaps.addressConflict', 'migration', address, address, 'failure',
  jsonb_build_object('spellings', to_jsonb(spellings), 'hint', 'Cap rows name this address in more than one spelling; set its cap once with PATCH /admin/user-caps/<address> to keep one.')
FROM gw_address_conflicts
WHERE scope = 'user-caps';

UPDATE gw_user_caps
SET webhook_sealed_for = CASE WHEN alert_webhook_sealed IS NULL THEN NULL ELSE user_id END,
    user_id = lower(user_id)
WHERE user_id <> lower(user_id)
  AND lower(user_id) NOT IN (SELECT address FROM gw_address_conflicts WHERE scope = 'user-caps');
