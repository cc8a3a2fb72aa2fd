import { gatewayError } from '../errors.js';

/** Service keys (`ark_svc_`) are for `/v1/*` only; the tool servers `/mcp` and `/mcp/org` serve people. */
export const serviceKeyRefused = () =>
  gatewayError(
    'service_key_not_allowed',
    'This tool server serves people: use a developer’s client key (or, on /mcp/org, an access token), not a service key.',
  );
