import { isRecord, type JsonObject } from './json-value.js';

export const retrieveToolName = 'gw_retrieve';

const lineTypes = new Set(['number', 'integer']);

function hasType(schema: unknown, allowed: ReadonlySet<string>): boolean {
  return isRecord(schema) && typeof schema.type === 'string' && allowed.has(schema.type);
}

/**
 * The exact `gw_retrieve` parameter schema `{handle, startLine?, endLine?, grep?}`: all four
 * properties, `handle` the only required one. A look-alike with other fields proves nothing about the client.
 */
export function isRetrieveSchema(schema: unknown): boolean {
  if (!isRecord(schema) || schema.type !== 'object' || !isRecord(schema.properties)) return false;
  const properties = schema.properties;
  const names = Object.keys(properties).sort();
  if (names.join(',') !== 'endLine,grep,handle,startLine') return false;
  const text = new Set(['string']);
  if (!hasType(properties.handle, text) || !hasType(properties.grep, text)) return false;
  if (!hasType(properties.startLine, lineTypes) || !hasType(properties.endLine, lineTypes)) return false;
  const required = schema.required;
  return Array.isArray(required) && required.length === 1 && required[0] === 'handle';
}

/**
 * One tool declaration in any of the three shapes: chat-completions `{type:"function", function:{name,
 * parameters}}`, Responses `{type:"function", name, parameters}`, Messages `{name, input_schema}`.
 */
export function isRetrieveDeclaration(tool: unknown): boolean {
  if (!isRecord(tool)) return false;
  const nested: JsonObject | undefined = isRecord(tool.function) ? tool.function : undefined;
  if (nested) return nested.name === retrieveToolName && isRetrieveSchema(nested.parameters);
  if (tool.name !== retrieveToolName) return false;
  return isRetrieveSchema(tool.input_schema ?? tool.parameters);
}

/** `tool_choice: "none"` (chat, Responses) or `{type: "none"}` (Messages). */
export function isToolChoiceNone(choice: unknown): boolean {
  return choice === 'none' || (isRecord(choice) && choice.type === 'none');
}

/**
 * The one tool `tool_choice` forces, if any: chat `{type:"function", function:{name}}`, Responses
 * `{type:"function", name}`, Messages `{type:"tool", name}`. `required`/`any` leave the model the choice.
 */
export function forcedToolName(choice: unknown): string | undefined {
  if (!isRecord(choice)) return undefined;
  if (choice.type === 'function') {
    const name = isRecord(choice.function) ? choice.function.name : choice.name;
    return typeof name === 'string' ? name : undefined;
  }
  return choice.type === 'tool' && typeof choice.name === 'string' ? choice.name : undefined;
}
