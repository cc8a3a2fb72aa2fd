/**
 * `record[key]` for a key that comes from a request: only the record's own entries count, so a model id such as
 * `constructor`, `toString` or `__proto__` reads as absent instead of reaching `Object.prototype`.
 */
export function ownValue<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
