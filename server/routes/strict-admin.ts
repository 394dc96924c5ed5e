/**
 * Admin requests take no key the route does not know. A misspelt or foreign key is a 400 that
 * names it, never silently dropped: `PUT /api/admin/search-settings {"a":1}` once answered 200
 * and wiped every stored synonym and best bet. Every admin route gets a query schema (none
 * allowed unless the route lists them) and, on POST/PUT/DELETE, a body schema (an empty body
 * unless the route lists its fields); the routes' own schemas say `additionalProperties: false`.
 */
import type { FastifyInstance, RouteOptions } from 'fastify';

const NO_QUERY = { type: 'object', additionalProperties: false, properties: {} } as const;
/** No body, or an empty JSON object. */
const NO_BODY = { type: ['object', 'null'], additionalProperties: false, properties: {} } as const;
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Adds the strict default schemas to the routes registered after it in this scope. */
export function strictAdminSchemas(scope: FastifyInstance): void {
  scope.addHook('onRoute', (route: RouteOptions) => {
    // A route validated by its own handler (zod) keeps its body to itself.
    const schema = (route.schema ??= {});
    schema.querystring ??= NO_QUERY;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (schema.body === undefined && !route.config?.validatesOwnBody && methods.some((method) => WRITE_METHODS.has(method))) schema.body = NO_BODY;
  });
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The handler validates the body itself (a zod schema), strictly. */
    validatesOwnBody?: boolean;
  }
}
