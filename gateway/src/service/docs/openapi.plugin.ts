import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { zodOpenApiTransform } from '@gw/platform';
import { withInferenceErrors } from './inference-errors.js';

import { interfaceVersion } from '../../shared/interface-version.js';

export { interfaceVersion };

/** `/openapi.json` generated from the route schemas, and `/docs` served from the swagger-ui package (no CDN). */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'gw gateway',
        version: interfaceVersion,
        description:
          'Inference (/v1/*), admin (/admin/*), Management API v1 (/admin/v1/*), inbound SCIM v2 (/scim/v2/*), the connect API (/connect/*), CLI login (/sso/cli/*), console sign-in (/admin/auth, /admin/sso/*), the device page (/device) and health routes of the gw gateway.',
      },
      components: {
        securitySchemes: {
          clientKey: {
            type: 'http',
            scheme: 'bearer',
            description: 'Client key ark_… or service key ark_svc_… (also x-gw-api-key or x-api-key)',
          },
          adminBearer: { type: 'http', scheme: 'bearer', description: 'GW_ADMIN_TOKEN or an admin API key aak_…' },
          consoleSession: {
            type: 'apiKey',
            in: 'cookie',
            name: 'gw_console',
            description:
              'A console sign-in session (__Host-gw_console behind TLS), set by GET /admin/sso/callback; every state-changing call also sends x-gw-csrf-token from the console’s own origin',
          },
          scimBearer: {
            type: 'http',
            scheme: 'bearer',
            description: 'The SCIM bearer set with PUT /admin/v1/sso/scim (identity-provider provisioning)',
          },
          webhookSecret: {
            type: 'http',
            scheme: 'bearer',
            description:
              'The failing-policies webhook secret from the GW_FLEET_WEBHOOK_CONFIG file (also accepted as ?token=); /connect/fleet-policy-webhook only',
          },
          orgAccessToken: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description:
              'An RS256 access token of the organization’s identity provider (GW_ORG_HUB_ISSUER) minted for <GW_PUBLIC_URL>/mcp/org; /mcp/org only',
          },
        },
      },
    },
    transform: zodOpenApiTransform,
    transformObject: (document) =>
      withInferenceErrors('openapiObject' in document ? document.openapiObject : document.swaggerObject),
  });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    staticCSP: true,
    uiConfig: { docExpansion: 'list', deepLinking: true },
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
