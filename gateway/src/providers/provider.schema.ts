// The provider bodies are Management API v1 wire shapes, shared with the operator through contracts.
export {
  okResponse,
  providerKeyBody,
  providerList,
  providerSlug,
  providerSlugParams,
  providerSummary,
} from '@gw/contracts/management';
