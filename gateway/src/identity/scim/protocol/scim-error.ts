/** RFC 7644 The schema URN of every SCIM error response body. */
export const scimErrorSchema = 'urn:ietf:params:scim:api:messages:2.0:Error';

/** RFC 7644 §3.12 Table 9: the `scimType` keywords a 400 (or 409, 403) error may carry. */
export const scimErrorTypes = [
  'invalidFilter',
  'tooMany',
  'uniqueness',
  'mutability',
  'invalidSyntax',
  'invalidPath',
  'noTarget',
  'invalidValue',
  'invalidVers',
  'sensitive',
] as const;
export type ScimErrorType = (typeof scimErrorTypes)[number];

/** A failure the SCIM surface renders in RFC 7644's error envelope; `message` becomes `detail`, so it must be client-safe. */
export class ScimError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly scimType?: ScimErrorType,
  ) {
    super(message);
    this.name = 'ScimError';
  }
}

export interface ScimErrorBody {
  schemas: [typeof scimErrorSchema];
  /** RFC 7644 §3.12 types `status` as a string; Entra ID and Okta both accept it. */
  status: string;
  detail: string;
  scimType?: ScimErrorType;
}

/** The RFC 7644 §3.12 body for `error`; `scimType` is left out when the error has none. */
export function scimErrorBody(error: ScimError): ScimErrorBody {
  const body: ScimErrorBody = { schemas: [scimErrorSchema], status: String(error.status), detail: error.message };
  if (error.scimType !== undefined) body.scimType = error.scimType;
  return body;
}

export function badRequest(detail: string, scimType: ScimErrorType): ScimError {
  return new ScimError(400, detail, scimType);
}

export function notFound(detail: string): ScimError {
  return new ScimError(404, detail);
}

/** RFC 7644 A uniqueness conflict is a 409 with `uniqueness` (e.g. a second user with the same userName). */
export function uniquenessConflict(detail: string): ScimError {
  return new ScimError(409, detail, 'uniqueness');
}
