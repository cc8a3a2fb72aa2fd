/** A parsed JSON object as the optimizer sees it: values stay `unknown` until checked. */
export type JsonObject = Record<string, unknown>;

export function isRecord(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function stringField(value: JsonObject, key: string): string | undefined {
  const field = value[key];
  return typeof field === 'string' ? field : undefined;
}

export function arrayField(value: JsonObject, key: string): readonly unknown[] | undefined {
  const field = value[key];
  return Array.isArray(field) ? field : undefined;
}

/** The `model` a request or response body names, if it names one. */
export function modelOf(body: JsonObject): string | undefined {
  return stringField(body, 'model');
}
