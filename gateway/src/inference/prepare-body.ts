import type { Lane } from '../providers/translate/lane.js';
import type { TranslationContext } from '../providers/translate/translator.js';
import type { Selection } from '../routing/resolve-route.js';
import type { ModelFacts } from '../providers/pricing/known-models.js';
import { clampMaxTokens } from './clamp-max-tokens.js';
import type { InferenceCall } from './inference-call.js';

export interface PreparedBody {
  body: Buffer | string;
  context: TranslationContext;
  /** We added `stream_options.include_usage` for metering; the client did not ask for the usage chunk. */
  hideUsageChunk: boolean;
}

type Json = Record<string, unknown>;

const reasoningModel = /^(o\d|gpt-5|gpt-oss)/;

function isReasoningModel(model: string): boolean {
  return reasoningModel.test(model.slice(model.lastIndexOf('/') + 1));
}

function wantsUsageChunk(body: Json): boolean {
  const options = body.stream_options as { include_usage?: unknown } | undefined;
  return options?.include_usage === true;
}

/**
 * Same family: the client's bytes go upstream unchanged unless the model id, the output ceiling (Messages lanes) or
 * the usage request of an OpenAI stream had to change, and then only those fields differ. Crossing: translated.
 */
export function prepareUpstreamBody(input: {
  call: InferenceCall;
  selection: Selection;
  lane: Lane;
  rawBody: Buffer | null;
  modelFacts?: Readonly<Record<string, ModelFacts>>;
  /** Subscription passthrough traffic is never clamped. */
  clamp?: boolean;
}): PreparedBody {
  const { call, selection, lane } = input;
  const original = call.body ?? {};
  const stream = original.stream === true;
  const includeUsage = wantsUsageChunk(original);
  const context: TranslationContext = {
    stream,
    includeUsage,
    requestModel: typeof original.model === 'string' ? original.model : selection.model,
  };

  if (lane.kind === 'translate') {
    // Non-reasoning OpenAI models (gpt-4.1, gpt-4o) reject `reasoning_effort`; only reasoning families get it.
    let source: Json = original.model === selection.model ? original : { ...original, model: selection.model };
    // A Messages request is clamped on the lane it arrived on, whichever family serves it.
    if (call.operation.kind === 'messages' && input.clamp !== false)
      source = clampMaxTokens(source, selection.model, input.modelFacts);
    const translated = lane.translateRequest(source, { sendReasoningEffort: isReasoningModel(selection.model) });
    let body = translated.body as Json;
    if (selection.provider.family === 'anthropic') body = clampMaxTokens(body, selection.model, input.modelFacts);
    return {
      body: JSON.stringify(body),
      context: { ...translated.context, requestModel: context.requestModel },
      hideUsageChunk: false,
    };
  }

  let body: Json = original.model === selection.model ? original : { ...original, model: selection.model };
  if (selection.provider.family === 'anthropic' && call.operation.kind === 'messages' && input.clamp !== false)
    body = clampMaxTokens(body, selection.model, input.modelFacts);
  // OpenAI streams report usage only when asked; ask, and keep the extra chunk from a client that did not.
  const askForUsage =
    stream &&
    selection.provider.family === 'openai' &&
    (call.operation.kind === 'chat' || call.operation.kind === 'completions') &&
    !includeUsage;
  if (body === original && input.rawBody !== null) {
    // The client's own bytes, with the usage request spliced in when needed (a body with stream_options is merged below).
    const raw = !askForUsage ? input.rawBody : 'stream_options' in original ? null : withUsageRequested(input.rawBody);
    if (raw) return { body: raw, context, hideUsageChunk: askForUsage };
  }
  if (askForUsage)
    body = { ...body, stream_options: { ...(body.stream_options as Json | undefined), include_usage: true } };
  return { body: JSON.stringify(body), context, hideUsageChunk: askForUsage };
}

const USAGE_MEMBER = Buffer.from('"stream_options":{"include_usage":true}');
const MEMBER_SEPARATOR = Buffer.from(',');
const NOTHING = Buffer.alloc(0);
const isJsonSpace = (byte: number | undefined) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;

/**
 * The client's bytes with `"stream_options":{"include_usage":true}` added as the object's first member, or null when
 * the body does not start as an object. Used only when the body has no `stream_options` member, so no key repeats.
 * Splicing instead of re-serialising keeps every other byte as sent (number spellings, key order, escapes) and costs
 * a copy rather than a `JSON.stringify` of the whole conversation on every streamed call.
 */
export function withUsageRequested(raw: Buffer): Buffer | null {
  let open = 0;
  while (isJsonSpace(raw[open])) open += 1;
  if (raw[open] !== 0x7b /* { */) return null;
  let next = open + 1;
  while (isJsonSpace(raw[next])) next += 1;
  const empty = raw[next] === 0x7d; /* } */
  return Buffer.concat([
    raw.subarray(0, open + 1),
    USAGE_MEMBER,
    empty ? NOTHING : MEMBER_SEPARATOR,
    raw.subarray(open + 1),
  ]);
}
