-- The agent enroll secret the endpoint evidence service minted for each of its organizations, sealed under the
-- keystore key. The service keeps only a hash; the gateway keeps this copy so that enrolled developers
-- can fetch it through POST /connect/endpoint-enrollment. Written only by a rotation made through the
-- gateway's admin plane.
CREATE TABLE gw_endpoint_enroll_secrets (
  org_id text PRIMARY KEY,
  sealed text NOT NULL,
  -- The service's createdAt of this secret: a later rotation or revocation at the service makes the copy stale.
  minted_at text NOT NULL,
  rotated_at timestamptz NOT NULL
);
