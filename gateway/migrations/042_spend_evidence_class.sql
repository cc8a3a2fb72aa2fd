-- How the request stood on retrieval, as the optimizer classed it from the gateway's retrievalDiscovery capability
-- and the request's tools (docs/adr/0021-fresh-reversible-trimming.md): direct, deferral_latched, unlatched_deferred,
-- no_discovery, toolless or forced_handler. NULL when the optimizer gave no class (not asked, unreachable, or a lane
-- it never sees). Content-free, like every other column of the row.
ALTER TABLE gw_spend ADD COLUMN evidence_class text;
