/**
 * The vendor's delivered-check signing keys, pinned in the image: a delivered check verifies against these only, offline
 * (no key is ever fetched). Key ids let the vendor rotate: a new key ships here before the vendor signs with it. The
 * private halves are held by the vendor's release signing and are in no repository. There is no environment variable
 * that adds a key; tests pass their own keys to `buildApp` (`deliveredCheckKeys`), which `main.ts` never does
 * (`docs/adr/0027-delivered-check-signatures.md`).
 */
export const pinnedDeliveredCheckKeys: Readonly<Record<string, string>> = Object.freeze({
  'gw-policy-push-2026-1': 'a1U6Wjvz_OQlKi_6AYYnW_Cq8hiYS2SN9wecvw9vzUw',
});
