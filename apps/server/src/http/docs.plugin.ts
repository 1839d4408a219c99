import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { type Endpoint, endpoints, envelope, LegacyQuerySchema } from '@fbox/contracts';
import fp from 'fastify-plugin';
import { z } from 'zod';

const toSchema = (schema: z.ZodType, io: 'input' | 'output') =>
  z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'openapi-3.0' }) as Record<string, unknown>;

/** Query parameters of a GET endpoint as OpenAPI parameters. */
const parameters = (schema: z.ZodType) => {
  const json = toSchema(schema, 'input') as { properties?: Record<string, unknown>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, property]) => ({
    name,
    in: 'query',
    required: json.required?.includes(name) ?? false,
    schema: property,
  }));
};

/** The OpenAPI document, generated from the contract's endpoint table (the one source of truth). */
export const openApiDocument = () => {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [name, e] of Object.entries(endpoints) as [string, Endpoint][]) {
    const body = e.body ? toSchema(e.body, 'input') : undefined;
    const operation = {
      operationId: name,
      tags: [e.path.split('/')[2] ?? 'index'],
      summary: `${name} (${e.permission}); also served at /api${e.path}`,
      security: e.permission === 'public' ? [] : [{ logintoken: [] }],
      parameters: parameters(e.query ?? LegacyQuerySchema),
      ...(body && {
        requestBody: {
          content: {
            'application/x-www-form-urlencoded': { schema: body },
            'application/json': { schema: body },
          },
        },
      }),
      responses: {
        200: {
          description: 'Envelope: code 1 is success; other codes per the error catalogue',
          content: { 'application/json': { schema: toSchema(envelope(e.data), 'output') } },
        },
      },
    };
    const { requestBody: _, ...withoutBody } = operation;
    paths[e.path] = {
      [e.method.toLowerCase()]: operation,
      // The same call on GET: the body's fields in the query.
      ...(e.alsoGet &&
        e.body && { get: { ...withoutBody, operationId: `${name}Get`, parameters: parameters(e.body) } }),
    };
  }
  return {
    openapi: '3.0.3',
    info: { title: 'FBOX Cloud API', version: '0.1.0' },
    components: { securitySchemes: { logintoken: { type: 'apiKey', in: 'header', name: 'logintoken' } } },
    paths,
  };
};

/** `/docs` (Swagger UI) and `/docs/json` (the document). */
export const docsPlugin = fp(
  async (app) => {
    await app.register(swagger, { mode: 'static', specification: { document: openApiDocument() as never } });
    await app.register(swaggerUi, { routePrefix: '/docs' });
  },
  { name: 'docs' },
);
