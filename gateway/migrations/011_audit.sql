-- Content-free audit trail: every admin and GDPR write, plus reason-coded auth and cap rejections
-- (category 'auth', written by the identity and admission stages). Never request or response bodies.
CREATE TABLE gw_audit_events (
  id text PRIMARY KEY,
  created_at timestamptz NOT NULL,
  category text NOT NULL,
  -- Operation id for admin writes (keys.create); reason code for auth events (key_revoked, user_budget_exceeded).
  action text NOT NULL,
  -- admin-token, apikey:<id>, sso:<email>; for auth events the key id or 'anonymous'.
  actor text NOT NULL,
  target text,
  -- The developer the event is about (GDPR export and erase find entries through it).
  subject_user text,
  request_id text,
  outcome text NOT NULL CHECK (outcome IN ('success', 'failure')),
  status integer,
  -- Small content-free extras: counts, a remediation hint, the endpoint of an auth rejection.
  details jsonb NOT NULL DEFAULT '{}'::jsonb
);
-- Keyset paging, newest first, overall and per category.
CREATE INDEX gw_audit_events_page ON gw_audit_events (created_at DESC, id DESC);
CREATE INDEX gw_audit_events_category_page ON gw_audit_events (category, created_at DESC, id DESC);
CREATE INDEX gw_audit_events_subject ON gw_audit_events (subject_user, created_at DESC);
