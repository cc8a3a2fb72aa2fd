// The per-user cap bodies are Management API v1 wire shapes, shared with the operator through contracts.
export {
  alertPosture,
  capAlertsInput,
  capEntryBody,
  capPatchBody,
  capStatus,
  capUserName,
  capUserParams,
  capView,
  capsPutBody,
  capsResponse,
  thresholdsPercent,
  webhookUrl,
  type CapEntryInput,
  type CapPatch,
  type CapsPut,
  type CapView,
  type CapsResponse,
} from '@gw/contracts/management';

/** The thresholds an alert setting without its own list uses. */
export const defaultThresholds: readonly number[] = [80, 100];
