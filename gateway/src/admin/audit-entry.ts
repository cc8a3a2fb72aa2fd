import type { AuditEntryInput } from './audit/audit.store.js';
import { isWriteOperation, type AdminOperation } from './operation.js';
import type { Principal } from './principal.js';

/** Writes are audited, plus reads an operation marks as sensitive (GDPR export). */
export function isAudited(operation: AdminOperation): boolean {
  return operation.audit ?? isWriteOperation(operation);
}

export function auditCategoryOf(operation: AdminOperation): string {
  if (operation.auditCategory) return operation.auditCategory;
  const path =
    operation.v1?.path.replace(/^\/admin\/v1\//, '') ??
    operation.legacy?.[0]?.path.replace(/^\/admin\//, '') ??
    operation.id;
  return path.split('/')[0] ?? operation.id;
}

function field(value: unknown, name: string): string | null {
  if (typeof value !== 'object' || value === null) return null;
  const entry = (value as Record<string, unknown>)[name];
  return typeof entry === 'string' ? entry : null;
}

function record(result: unknown): unknown {
  return typeof result === 'object' && result !== null && 'record' in result ? result.record : result;
}

/** Default target: the path parameters (a resource id), else the id of the record a create returned. */
function defaultTarget(params: unknown, result: unknown): string | null {
  const values =
    typeof params === 'object' && params !== null
      ? Object.values(params).filter((value): value is string => typeof value === 'string')
      : [];
  if (values.length > 0) return values.join('/');
  return field(record(result), 'id');
}

/** Default subject: the developer named in the path, else the user of the created record. */
function defaultSubject(params: unknown, result: unknown): string | null {
  return field(params, 'user') ?? field(params, 'email') ?? field(record(result), 'user');
}

/** One content-free entry: actor, action (the operation id), category, target, request id, outcome and status. */
export function auditEntryFor(input: {
  operation: AdminOperation;
  principal: Principal;
  params: unknown;
  result?: unknown;
  requestId: string;
  status: number;
}): AuditEntryInput {
  const { operation, principal, params, result } = input;
  const subjects =
    operation.auditSubjects && input.status < 400
      ? operation.auditSubjects({ params, result })
      : { target: defaultTarget(params, result), subject: defaultSubject(params, result) };
  return {
    category: auditCategoryOf(operation),
    action: operation.id,
    actor: principal.actor,
    target: subjects.target,
    subject: subjects.subject,
    requestId: input.requestId,
    outcome: input.status < 400 ? 'success' : 'failure',
    status: input.status,
  };
}
