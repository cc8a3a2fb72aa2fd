import { isPlainObject, parseJson } from './parse-wire.js';

/**
 * OpenAI-family tool-call `arguments` are a JSON string the model wrote; Messages `tool_use.input` must be
 * an object. Models truncated by `max_tokens`, and some open-weight models, emit invalid JSON or an empty
 * string: that becomes `{}` rather than failing the whole conversation on every later turn.
 */
export function parseToolArguments(argumentsText: string | null | undefined): Record<string, unknown> {
  if (argumentsText === null || argumentsText === undefined || argumentsText.trim() === '') return {};
  const parsed = parseJson(argumentsText);
  return isPlainObject(parsed) ? parsed : {};
}

/** Messages `tool_use.input` back to an OpenAI `arguments` string. */
export function stringifyToolInput(input: unknown): string {
  return JSON.stringify(isPlainObject(input) ? input : {});
}
