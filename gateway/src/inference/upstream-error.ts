import type { Lane } from '../providers/translate/lane.js';
import type { AppError } from '@gw/platform';
import { parseJson } from '../providers/translate/parse-wire.js';
import { relayHeaders, upstreamSourceHeaders } from '../providers/upstream/header-policy.js';
import { gatewayError } from '../errors.js';

export interface RelayedError {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The provider's error type, for the spend record's error code. */
  errorType: string | null;
}

const notOurFault = (slug: string) => ` (Error from provider "${slug}"; this is not a gateway failure.)`;

type ErrorEnvelope = { error?: { message?: unknown; type?: unknown } };

function amend(envelope: object, slug: string): object {
  const error = (envelope as ErrorEnvelope).error;
  if (!error || typeof error !== 'object') return envelope;
  const message = typeof error.message === 'string' ? error.message : 'The provider returned an error.';
  return { ...envelope, error: { ...error, message: `${message}${notOurFault(slug)}` } };
}

function fallbackEnvelope(status: number, slug: string, messagesClient: boolean): object {
  const message = `The provider returned HTTP ${status}.${notOurFault(slug)}`;
  const type = status >= 500 ? 'api_error' : 'invalid_request_error';
  return messagesClient ? { type: 'error', error: { type, message } } : { error: { message, type, code: null } };
}

/**
 * Provider error relay: status and error type unchanged; for 5xx only `error.message` gains a sentence
 * naming the provider; headers say the error came from upstream. Same-family 4xx bodies go through untouched.
 */
export function relayUpstreamError(input: {
  status: number;
  text: string;
  upstreamHeaders: Record<string, string | string[] | undefined>;
  slug: string;
  lane: Lane | null;
  messagesClient: boolean;
}): RelayedError {
  const { status, text, slug, lane, messagesClient } = input;
  const parsed = parseJson(text);
  let envelope: object | undefined;
  if (lane?.kind === 'translate') envelope = lane.translateError(parsed ?? text, status);
  else if (parsed && typeof parsed === 'object' && 'error' in parsed) envelope = parsed;
  const serverError = status >= 500;
  let body: string;
  if (!envelope) body = JSON.stringify(fallbackEnvelope(status, slug, messagesClient));
  else if (serverError) body = JSON.stringify(amend(envelope, slug));
  else body = lane?.kind === 'translate' ? JSON.stringify(envelope) : text;
  const errorType = (envelope as ErrorEnvelope | undefined)?.error?.type;
  return {
    status,
    body,
    errorType: typeof errorType === 'string' ? errorType : null,
    headers: {
      ...relayHeaders(input.upstreamHeaders),
      'content-type': 'application/json',
      ...upstreamSourceHeaders(slug, status),
    },
  };
}

/** The provider could not be reached or dropped the connection before answering: 502, marked as the provider's. */
export function upstreamUnreachableError(slug: string): AppError {
  return gatewayError(
    'upstream_unreachable',
    `Provider "${slug}" could not be reached. This is not a gateway failure.`,
    { headers: upstreamSourceHeaders(slug) },
  );
}

/** The provider's answer broke off while the gateway read it (a dropped connection, a cut body): 502, the provider's. */
export function upstreamInterruptedError(slug: string, cause?: unknown): AppError {
  return gatewayError(
    'upstream_interrupted',
    `Provider "${slug}" dropped the connection before its answer was complete. This is not a gateway failure.`,
    { headers: upstreamSourceHeaders(slug), cause },
  );
}

/**
 * Reads a provider's answer body: a read that fails (the provider dropped the connection midway) is the provider's
 * 502, never an unhandled 500. A read the call's own signal cut short is told apart by the caller, which checks the
 * signal first.
 */
export async function readingUpstream<T>(slug: string, read: Promise<T>): Promise<T> {
  try {
    return await read;
  } catch (error) {
    throw upstreamInterruptedError(slug, error);
  }
}
