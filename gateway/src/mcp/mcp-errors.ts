import { AppError } from '@gw/platform';

/** spec 000 §5: service keys (`ark_svc_`) are for `/v1/*` only; the tool servers `/mcp` and `/mcp/org` serve people. */
export const serviceKeyRefused = () =>
  new AppError({ status: 403, code: 'service_key_not_allowed', message: 'This tool server serves people: use a developer’s client key (or, on /mcp/org, an access token), not a service key.' });
