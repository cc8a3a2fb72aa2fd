import type { FastifyInstance } from 'fastify';
import { optimizerError } from '../errors.js';
import { leaseRefusal, type LeaseReader } from '../lease/lease-reader.js';
import { signatureHeader } from '@gw/platform';
import type { SignatureVerifier } from '../signing/verify-signature.js';
import { resolveCaller, type Caller, type HookTokens } from './auth.js';

export interface HookGateOptions {
  tokens: HookTokens;
  /** Present when a verify key is configured: signed routes then refuse unsigned calls. */
  verifier: SignatureVerifier | null;
  lease: LeaseReader;
}

/**
 * The hook surface's gates, in order: bearer on every hook; then, on routes marked `signed`,
 * the Ed25519 request signature over the raw body; then, on routes marked `leaseGated`, the entitlement lease.
 * `/v1/retrieve` and `/v1/record` are marked neither.
 */
export function installHookGates(scope: FastifyInstance, options: HookGateOptions): void {
  // Set by the onRequest hook below before any handler runs; the placeholder only reserves the property shape.
  scope.decorateRequest<Caller, 'caller'>('caller', null as unknown as Caller);
  scope.addHook('onRequest', async (request) => {
    const caller = resolveCaller(request.headers.authorization, options.tokens);
    if (!caller) throw optimizerError('unauthorized');
    request.caller = caller;
  });
  scope.addHook('preValidation', async (request) => {
    const config = request.routeOptions.config;
    if (config.signed && options.verifier) {
      const path = request.url.split('?', 1)[0];
      const failure = await options.verifier.verify(
        request.headers[signatureHeader],
        request.method,
        path,
        request.rawBody ?? '',
      );
      if (failure) throw optimizerError(`signature_${failure}`);
    }
    if (config.leaseGated) {
      const refusal = leaseRefusal(options.lease.current());
      if (refusal) throw refusal;
    }
  });
}

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller;
  }
  interface FastifyContextConfig {
    /** Requires x-gw-signature when a verify key is configured. */
    signed?: boolean;
    /** Refused by a paused, suspended, expired or unverifiable lease. */
    leaseGated?: boolean;
  }
}
