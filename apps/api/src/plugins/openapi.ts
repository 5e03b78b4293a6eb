import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

/** The OpenAPI document, generated from the routes' zod schemas: UI at /api/docs, JSON at /api/docs/json. */
export async function registerOpenApi(app: FastifyInstance) {
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Frontdesk API',
        version: '0.1.0',
        description:
          'The REST calls of the guest widget (spec §7) and of the agent console. Every body is `{ data }`; every error `{ error: { code, message, fields? } }`.',
      },
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
    },
    // Only the REST API: the WebSocket gateways and the apps' pages are no part of it.
    transform: (route) =>
      route.url.startsWith('/api/')
        ? jsonSchemaTransform(route)
        : { schema: { ...route.schema, hide: true }, url: route.url },
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
}
