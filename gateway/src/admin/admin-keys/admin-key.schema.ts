// The admin-key bodies are Management API v1 wire shapes, shared with the operator through contracts.
export {
  adminKeyCreateBody,
  adminKeyIdParams,
  adminKeyListResponse,
  adminKeyRecord,
  mintedAdminKeyResponse,
  type AdminKeyCreateBody,
  type AdminKeyRecord,
} from '@gw/contracts/management';
