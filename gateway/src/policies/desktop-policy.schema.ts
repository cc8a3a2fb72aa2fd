// The desktop-client policy bodies are Management API v1 wire shapes, shared with the operator through contracts.
export {
  desktopPolicyLimits,
  desktopPolicyPutBody,
  desktopPolicyResponse,
  desktopPolicySettings,
  type DesktopPolicyPut,
  type DesktopPolicySettings,
  type DesktopPolicyView,
} from '@gw/contracts/management';
