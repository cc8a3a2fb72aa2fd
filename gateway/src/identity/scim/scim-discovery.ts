import { gatewayUserExtension, groupSchema, listSchema, userSchema } from './scim-resources.js';

/**
 * Discovery documents (RFC 7644 §4): PATCH, filtering and paging advertised, bearer authentication,
 * User and Group resource types, and the schemas of the attributes this server keeps.
 */
export const maxPageSize = 200;

export function serviceProviderConfig(base: string): Record<string, unknown> {
  return {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'],
    documentationUri: `${base.replace(/\/scim\/v2$/, '')}/docs`,
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: maxPageSize },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: false },
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'OAuth Bearer Token',
        description: 'The SCIM bearer set in the gateway SCIM settings',
        primary: true,
      },
    ],
    meta: { resourceType: 'ServiceProviderConfig', location: `${base}/ServiceProviderConfig` },
  };
}

export function resourceTypes(base: string): Array<Record<string, unknown>> {
  const type = (id: string, endpoint: string, schema: string, extensions: Array<Record<string, unknown>>) => ({
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'],
    id,
    name: id,
    endpoint,
    schema,
    schemaExtensions: extensions,
    meta: { resourceType: 'ResourceType', location: `${base}/ResourceTypes/${id}` },
  });
  return [
    type('User', '/Users', userSchema, [{ schema: gatewayUserExtension, required: false }]),
    type('Group', '/Groups', groupSchema, []),
  ];
}

interface AttributeOptions {
  type?: string;
  required?: boolean;
  multiValued?: boolean;
  mutability?: string;
  uniqueness?: string;
  subAttributes?: Array<Record<string, unknown>>;
}

const attribute = (name: string, description: string, options: AttributeOptions = {}) => ({
  name,
  type: options.type ?? 'string',
  multiValued: options.multiValued ?? false,
  description,
  required: options.required ?? false,
  caseExact: false,
  mutability: options.mutability ?? 'readWrite',
  returned: 'default',
  uniqueness: options.uniqueness ?? 'none',
  ...(options.subAttributes ? { subAttributes: options.subAttributes } : {}),
});

const memberAttributes = [
  attribute('value', 'Identifier of the member', { mutability: 'immutable' }),
  attribute('display', 'Name of the member', { mutability: 'readOnly' }),
];

const schemas = (base: string) =>
  [
    {
      id: userSchema,
      name: 'User',
      description:
        'A developer the identity provider provisions; userName is their e-mail address and their keys’ user',
      attributes: [
        attribute('userName', 'E-mail address; unique whatever its case', { required: true, uniqueness: 'server' }),
        attribute('externalId', 'The identity provider’s own identifier'),
        attribute('displayName', 'Name shown to administrators'),
        attribute('name', 'Components of the name', {
          type: 'complex',
          subAttributes: [attribute('givenName', 'Given name'), attribute('familyName', 'Family name')],
        }),
        attribute('userType', 'Identity type'),
        attribute('active', 'false blocks every key of the user on the next request', { type: 'boolean' }),
        attribute('emails', 'E-mail addresses as the identity provider sent them; userName stays the identity', {
          type: 'complex',
          multiValued: true,
          subAttributes: [
            attribute('value', 'Address'),
            attribute('type', 'work, home, other, …'),
            attribute('primary', 'The preferred address; at most one', { type: 'boolean' }),
            attribute('display', 'Name shown for the address'),
          ],
        }),
        attribute('groups', 'Groups the user is a member of', {
          type: 'complex',
          multiValued: true,
          mutability: 'readOnly',
          subAttributes: memberAttributes,
        }),
      ],
    },
    {
      id: groupSchema,
      name: 'Group',
      description:
        'A group of the identity provider; groupTeamMap and adminGroup in the SCIM settings map it to a team or the administrator role',
      attributes: [
        attribute('displayName', 'Group name; unique whatever its case', { required: true, uniqueness: 'server' }),
        attribute('externalId', 'The identity provider’s own identifier'),
        attribute('members', 'Users in the group', {
          type: 'complex',
          multiValued: true,
          subAttributes: memberAttributes,
        }),
      ],
    },
    {
      id: gatewayUserExtension,
      name: 'GatewayUser',
      description: 'What the user’s groups map to in the gateway (read-only)',
      attributes: [
        attribute('team', 'Team from groupTeamMap', { mutability: 'readOnly' }),
        attribute('admin', 'Member of adminGroup', { type: 'boolean', mutability: 'readOnly' }),
      ],
    },
  ].map((schema) => ({
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:Schema'],
    ...schema,
    meta: { resourceType: 'Schema', location: `${base}/Schemas/${schema.id}` },
  }));

export function schemaDocuments(base: string): Array<Record<string, unknown>> {
  return schemas(base);
}

export function discoveryList(resources: ReadonlyArray<Record<string, unknown>>): Record<string, unknown> {
  return {
    schemas: [listSchema],
    totalResults: resources.length,
    startIndex: 1,
    itemsPerPage: resources.length,
    Resources: resources,
  };
}
