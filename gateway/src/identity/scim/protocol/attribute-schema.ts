/**
 * The attributes a filter or an `attributes`/`excludedAttributes` list may name, per resource type: every attribute of
 * RFC 7643's User and Group schemas (and the enterprise extension), whether or not this gateway keeps it. A filter on
 * an attribute the gateway drops (`title pr`) is valid and matches nothing; a name in no schema is `invalidFilter`.
 * Only the properties the filter and projection need are described: type, plurality, case exactness and "returned".
 */
export type AttributeType =
  'string' | 'boolean' | 'dateTime' | 'reference' | 'complex' | 'integer' | 'decimal' | 'binary';

export interface AttributeDefinition {
  /** As RFC 7643 spells it; names compare without case. */
  name: string;
  type: AttributeType;
  multiValued: boolean;
  caseExact: boolean;
  returned: 'always' | 'default' | 'never';
  subAttributes?: readonly AttributeDefinition[];
}

export interface ResourceSchema {
  /** The core schema URN, lowercased. */
  core: string;
  attributes: readonly AttributeDefinition[];
  /** Extension schema URN (lowercased) to its attributes. */
  extensions: ReadonlyMap<string, readonly AttributeDefinition[]>;
}

type Options = Partial<Omit<AttributeDefinition, 'name'>>;

const simple = (name: string, options: Options = {}): AttributeDefinition => ({
  name,
  type: 'string',
  multiValued: false,
  caseExact: false,
  returned: 'default',
  ...options,
});
const complex = (
  name: string,
  subAttributes: readonly AttributeDefinition[],
  options: Options = {},
): AttributeDefinition => simple(name, { type: 'complex', subAttributes, ...options });
const exact = { caseExact: true } as const;

/** The sub-attributes RFC 7643 gives its multi-valued attributes (emails, phoneNumbers, ims, roles, ...). */
const multiValuedParts = [
  simple('value'),
  simple('display'),
  simple('type'),
  simple('primary', { type: 'boolean' }),
  simple('$ref', { type: 'reference', ...exact }),
];
const plural = (name: string, parts: readonly AttributeDefinition[] = multiValuedParts) =>
  complex(name, parts, { multiValued: true });
const reference = (name: string) => [
  simple('value', exact),
  simple('$ref', { type: 'reference', ...exact }),
  simple(name),
  simple('type'),
];

/** Common attributes (RFC 7643 "common attributes"): on every resource. */
const common = [
  simple('id', { ...exact, returned: 'always' }),
  simple('externalId', exact),
  simple('schemas', { type: 'reference', multiValued: true, returned: 'always' }),
  complex('meta', [
    simple('resourceType', exact),
    simple('created', { type: 'dateTime' }),
    simple('lastModified', { type: 'dateTime' }),
    simple('location', { type: 'reference', ...exact }),
    simple('version', exact),
  ]),
];

const nameParts = ['formatted', 'familyName', 'givenName', 'middleName', 'honorificPrefix', 'honorificSuffix'].map(
  (name) => simple(name),
);
const addressParts = ['formatted', 'streetAddress', 'locality', 'region', 'postalCode', 'country', 'type'].map((name) =>
  simple(name),
);

const userAttributes = [
  ...common,
  simple('userName'),
  complex('name', nameParts),
  ...['displayName', 'nickName', 'profileUrl', 'title', 'userType', 'preferredLanguage', 'locale', 'timezone'].map(
    (name) => simple(name),
  ),
  simple('active', { type: 'boolean' }),
  simple('password', { returned: 'never' }),
  ...['emails', 'phoneNumbers', 'ims', 'photos', 'entitlements', 'roles', 'x509Certificates'].map((name) =>
    plural(name),
  ),
  plural('addresses', [...addressParts, simple('primary', { type: 'boolean' })]),
  plural('groups', reference('display')),
];

export const userCoreSchema = 'urn:ietf:params:scim:schemas:core:2.0:user';
export const groupCoreSchema = 'urn:ietf:params:scim:schemas:core:2.0:group';
export const enterpriseUserSchema = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:user';
/** The gateway's read-only view of what a user's groups map to. */
export const gatewayUserSchema = 'urn:gw:params:scim:schemas:extension:gateway:2.0:user';

const enterpriseAttributes = [
  ...['employeeNumber', 'costCenter', 'organization', 'division', 'department'].map((name) => simple(name)),
  complex('manager', [simple('value', exact), simple('$ref', { type: 'reference', ...exact }), simple('displayName')]),
];

export const userResourceSchema: ResourceSchema = {
  core: userCoreSchema,
  attributes: userAttributes,
  extensions: new Map([
    [enterpriseUserSchema, enterpriseAttributes],
    [gatewayUserSchema, [simple('team'), simple('admin', { type: 'boolean' })]],
  ]),
};

export const groupResourceSchema: ResourceSchema = {
  core: groupCoreSchema,
  attributes: [...common, simple('displayName'), plural('members', reference('display'))],
  extensions: new Map(),
};

export function findAttribute(
  attributes: readonly AttributeDefinition[],
  name: string,
): AttributeDefinition | undefined {
  const lowered = name.toLowerCase();
  return attributes.find((attribute) => attribute.name.toLowerCase() === lowered);
}

/** The key of `container` that names `name` whatever its case (attribute names are case-insensitive). */
export function keyOf(container: Readonly<Record<string, unknown>>, name: string): string | undefined {
  const lowered = name.toLowerCase();
  return Object.keys(container).find((key) => key.toLowerCase() === lowered);
}
