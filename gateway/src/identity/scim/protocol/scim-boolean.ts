/**
 * A SCIM boolean as identity providers actually send it: JSON `true`/`false`, or the strings Microsoft Entra ID sends
 * without its `aadOptscim062020` flag (`"True"`, `"False"`; matched in any case). Anything else is undefined, so the
 * caller can answer `invalidValue` instead of guessing.
 */
export function scimBoolean(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value !== 'string') return undefined;
  const lowered = value.toLowerCase();
  if (lowered === 'true') return true;
  if (lowered === 'false') return false;
  return undefined;
}
