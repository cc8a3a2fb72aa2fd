import { deliveredCheckPayload, remediationScripts, type DeliveredCheckPayload } from '@gw/contracts';
import { openDeliveredCheck, type DeliveredCheckTrust } from '@gw/platform';

export type ScreenRefusal =
  | 'delivered_check_unverified'
  | 'delivered_check_names_script'
  | 'delivered_check_not_read_only'
  | 'delivered_check_invalid';

export type Screened =
  | { ok: true; payload: DeliveredCheckPayload }
  | { ok: false; code: ScreenRefusal; detail: string; checkId: string | null };

/** A field outside the schema whose name says it carries something to run. */
const scriptField = /script|remediat|command|exec|shell|interpreter|^run/i;
const knownFields = new Set(Object.keys(deliveredCheckPayload.shape));
/** A file name an interpreter runs. */
const scriptFileName = /[\w.-]+\.(sh|bash|zsh|command|ps1|psm1|bat|cmd|vbs|py|rb|pl)\b/i;
const imageScriptNames = remediationScripts.map((script) => script.name.toLowerCase());
/** Statements that write, or reach outside the query's tables; osquery is read-only, this keeps it provably so. */
const writingStatement = /\b(insert|update|delete|replace|create|drop|alter|attach|detach|pragma|vacuum|reindex)\b/i;

/**
 * Screen one delivered envelope, in the order that makes each refusal exact: the signature against the pinned keys
 * first (nothing unsigned is read further), then anything that carries or names a script (even a field the schema
 * would refuse anyway, so the refusal says why), then the schema (monitor-only, never critical), then the query.
 */
export function screenDeliveredCheck(envelope: unknown, trust: DeliveredCheckTrust): Screened {
  const opened = openDeliveredCheck(envelope, trust);
  if (!opened.ok && opened.reason !== 'invalid_payload')
    return {
      ok: false,
      code: 'delivered_check_unverified',
      detail: `the check does not verify against a pinned key (${opened.reason.replace('_', ' ')})`,
      checkId: null,
    };
  const checkId = typeof opened.decoded.id === 'string' ? opened.decoded.id.slice(0, 64) : null;
  const named = scriptNamed(opened.decoded);
  if (named) return { ok: false, code: 'delivered_check_names_script', detail: named, checkId };
  if (!opened.ok) return { ok: false, code: 'delivered_check_invalid', detail: opened.detail, checkId };
  if (!isReadOnlySelect(opened.payload.query))
    return {
      ok: false,
      code: 'delivered_check_not_read_only',
      detail: 'the query must be one read-only SELECT',
      checkId,
    };
  return { ok: true, payload: opened.payload };
}

/** Why the signed JSON carries or names a script, or null when it does not. */
function scriptNamed(decoded: Record<string, unknown>): string | null {
  for (const [field, value] of Object.entries(decoded)) {
    if (!knownFields.has(field) && scriptField.test(field))
      return `the check has a "${field.slice(0, 40)}" field: delivered checks carry no script`;
    if (typeof value !== 'string') continue;
    const lower = value.toLowerCase();
    if (imageScriptNames.some((name) => lower.includes(name)) || scriptFileName.test(value))
      return `the check’s ${field.slice(0, 40)} names a script: delivered checks never name one`;
  }
  return null;
}

function isReadOnlySelect(query: string): boolean {
  const statement = query.trim().replace(/;\s*$/, '');
  if (statement.includes(';')) return false;
  return /^(select|with)\b/i.test(statement) && !writingStatement.test(statement);
}
