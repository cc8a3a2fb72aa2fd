import { isPlainObject } from '../parse-wire.js';
import type { MessagesToolChoiceOut, MessagesToolOut } from '../schemas/messages.types.js';

/**
 * The tool a chat client's `response_format` becomes on a Messages provider. Messages has no JSON mode of its own
 * that every model takes, but a forced call of a tool whose input schema is the wanted JSON yields exactly that
 * JSON, as the tool's input; the answer is translated back into the message content (`content` = the input as JSON,
 * finish `stop`), so the client reads the JSON it asked for, as it would from OpenAI.
 */
export const jsonResponseTool = 'json_response';

export interface JsonResponseForcing {
  tool: MessagesToolOut;
  toolChoice: MessagesToolChoiceOut;
}

/**
 * `response_format` → the forced tool, or null where it does not apply: `text` (or none), a client that offers its
 * own tools (forcing ours would take their tools away; the format is then left to the prompt, as before), or a schema
 * whose root is not an object (a tool's input is always an object).
 */
export function jsonResponseForcing(responseFormat: unknown, clientTools: number): JsonResponseForcing | null {
  if (!isPlainObject(responseFormat) || clientTools > 0) return null;
  let schema: Record<string, unknown>;
  let description = "Give the answer as this tool's input: a JSON object.";
  if (responseFormat.type === 'json_object') schema = { type: 'object' };
  else if (
    responseFormat.type === 'json_schema' &&
    isPlainObject(responseFormat.json_schema) &&
    isPlainObject(responseFormat.json_schema.schema)
  ) {
    schema = responseFormat.json_schema.schema;
    // A tool's input is an object: a root that is not plainly one (an array, a union) is left to the prompt.
    if (schema.type !== 'object') return null;
    if (typeof responseFormat.json_schema.description === 'string')
      description = `${description} ${responseFormat.json_schema.description}`;
  } else return null;
  return {
    tool: { name: jsonResponseTool, description, input_schema: { ...schema, type: 'object' } },
    toolChoice: { type: 'tool', name: jsonResponseTool },
  };
}
