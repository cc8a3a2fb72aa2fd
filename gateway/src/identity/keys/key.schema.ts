// The key bodies are Management API v1 wire shapes, shared with the operator through contracts.
export {
  clientKeyCreateBody,
  keyCreateBody,
  keyIdParams,
  keyListQuery,
  keyListResponse,
  keyPatchBody,
  keyRecord,
  mintedKeyResponse,
  okResponse,
  serviceKeyCreateBody,
  serviceKeyOnlyFields,
  type KeyRecord,
} from '@gw/contracts/management';
