import { isRecord, type JsonObject } from '../format/json-value.js';

/** Strings are matched first so whitespace inside them is never touched; every other run of whitespace goes. */
const stringOrWhitespace = /("(?:[^"\\]|\\.)*")|\s+/g;

/**
 * The arguments of a tool call with the whitespace between JSON tokens removed, decided at the lexical level:
 * values, key order and number spellings are the model's own (never re-serialise). Null when the
 * text is not one complete JSON document (a truncated call stays as the model wrote it) or has no layout to remove.
 */
export function minifyArguments(text: string): string | null {
  if (!/\s/.test(text)) return null;
  try {
    JSON.parse(text);
  } catch {
    return null;
  }
  const minified = text.replace(stringOrWhitespace, (match, quoted: string | undefined) => quoted ?? '');
  return minified.length < text.length ? minified : null;
}

/** Where one tool call's `arguments` string sits, with a way to put the rewritten text back. */
interface ArgumentsSlot {
  readonly text: string;
  replace(text: string): void;
}

/** Chat completions: `choices[].message.tool_calls[].function.arguments` (and the legacy `function_call`). */
function chatSlots(response: JsonObject): ArgumentsSlot[] {
  const slots: ArgumentsSlot[] = [];
  const choices = response.choices;
  if (!Array.isArray(choices)) return slots;
  for (const choice of choices as unknown[]) {
    if (!isRecord(choice) || !isRecord(choice.message)) continue;
    const message = choice.message;
    const calls = Array.isArray(message.tool_calls) ? (message.tool_calls as unknown[]) : [];
    for (const call of calls) if (isRecord(call) && isRecord(call.function)) slots.push(...argumentsOf(call.function));
    if (isRecord(message.function_call)) slots.push(...argumentsOf(message.function_call));
  }
  return slots;
}

/** Responses API: `output[]` items of type `function_call`. */
function responsesSlots(response: JsonObject): ArgumentsSlot[] {
  const output = response.output;
  if (!Array.isArray(output)) return [];
  return (output as unknown[]).flatMap((item) =>
    isRecord(item) && item.type === 'function_call' ? argumentsOf(item) : [],
  );
}

function argumentsOf(holder: JsonObject): ArgumentsSlot[] {
  const text = holder.arguments;
  if (typeof text !== 'string') return [];
  return [
    {
      text,
      replace: (next) => {
        holder.arguments = next;
      },
    },
  ];
}

export interface ArgumentsRewrite {
  readonly response: JsonObject;
  readonly calls: number;
  readonly before: readonly string[];
  readonly after: readonly string[];
}

/**
 * `tool_arguments_minify`, an output-stage strategy: a model that lays out its tool-call arguments as indented JSON
 * sends that layout back as input on every later turn. Removing it before the client sees the response costs no
 * prompt-cache write (the client stores the compact form from the start) and changes no parsed value. Messages-API
 * `tool_use` blocks carry `input` as an object and are left alone. The input response is never mutated.
 */
export function minifyToolArguments(response: JsonObject): ArgumentsRewrite | null {
  const copy = structuredClone(response);
  const before: string[] = [];
  const after: string[] = [];
  for (const slot of [...chatSlots(copy), ...responsesSlots(copy)]) {
    const minified = minifyArguments(slot.text);
    if (minified === null) continue;
    before.push(slot.text);
    after.push(minified);
    slot.replace(minified);
  }
  return before.length === 0 ? null : { response: copy, calls: before.length, before, after };
}
