export {
  assessQualityParity,
  costObjective,
  minimumSessionsPerArm,
  type CostVerdict,
  type GrossCostObjective,
  type QualityParityAssessment,
  type QualityParityInput,
  type QualityVerdict,
} from './quality-parity.js';
export { summarizeSessions, type ArmSummary, type Moments, type RatioMoments, type SessionTotals } from './moments.js';
export { expectedHoldoutShare, type SampleRatio } from './sample-ratio.js';
export type { ProxyComparison, ProxyDirection, ProxyName, ProxyVerdict } from './proxies.js';
