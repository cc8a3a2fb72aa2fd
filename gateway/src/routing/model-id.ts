import { z } from 'zod';

/**
 * A model id wherever one enters the gateway (request bodies, aliases, routing configs). It is echoed in response
 * headers (`x-gw-target`) and stored on spend rows, so it is printable ASCII and bounded: a control character or a
 * 200 KB id is a 400 where it arrives, not a header the server cannot write after the provider has answered.
 */
export const modelId = z
  .string()
  .min(1)
  .max(256)
  .regex(/^[\x20-\x7e]+$/, 'must be printable ASCII');
