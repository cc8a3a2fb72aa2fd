export { buildApp, type EvidenceAppDeps } from './app.js';
export { adminTokenOf, evidenceHelp, loadEvidenceConfig, type EvidenceServiceConfig } from './config.js';
export { migrateEvidence } from './migrations.js';
export { packVersion, policyPack } from './catalog/policy-pack.js';
export { OutputVault, outputVaultOf } from './remediation/output-vault.js';
