/**
 * Sign-in for searchers of a site whose index holds pages fetched with credentials:
 * GET /signin is a form, POST /api/signin checks the search token (form or JSON body, never the
 * URL, so it never reaches a log line) and sets an HttpOnly cookie that carries a MAC of the
 * token, not the token. The admin API (`/api/admin/search-access`) shows and sets whether the
 * search is public.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { adminTokenHook } from './admin-routes.ts';
import { strictAdminSchemas } from './strict-admin.ts';
import { SEARCH_COOKIE, type SearchAccess } from '../search-access.ts';

const COOKIE_DAYS = 30;

function signInPage(message: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in to search</title><link rel="stylesheet" href="/base.css"></head>
<body><main class="signin">
<h1>Sign in to search</h1>
<p>${message}</p>
<form method="post" action="/api/signin">
<label for="token">Search token</label>
<input id="token" name="token" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form></main></body></html>
`;
}

function presentedToken(request: FastifyRequest): string | undefined {
  const body = request.body;
  if (typeof body === 'object' && body !== null && typeof (body as { token?: unknown }).token === 'string') return (body as { token: string }).token;
  return undefined;
}

export function registerSignInRoutes(app: FastifyInstance, access: SearchAccess): void {
  app.get('/signin', async (_request, reply) => reply.type('text/html; charset=utf-8').send(signInPage('Some pages of this site are not public. Enter the search token you were given.')));

  void app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 4096 }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });
    scope.post('/api/signin', { config: { rateLimit: { max: 20, timeWindow: '1 minute' } } }, async (request, reply) => {
      const fromForm = String(request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
      if (!access.tokenMatches(presentedToken(request))) {
        const message = access.status().tokenSet ? 'That is not the search token.' : 'No search token is set on this server: ask the site admin.';
        if (fromForm) return reply.code(401).type('text/html; charset=utf-8').send(signInPage(message));
        return reply.code(401).send({ statusCode: 401, code: 'LSE_SIGN_IN_FAILED', error: 'Unauthorized', message });
      }
      const secure = request.protocol === 'https' ? '; Secure' : '';
      reply.header('set-cookie', `${SEARCH_COOKIE}=${access.sessionValue}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${COOKIE_DAYS * 86_400}${secure}`);
      if (fromForm) return reply.redirect('/', 303);
      return { signedIn: true };
    });
  });
}

/** GET /api/admin/search-access and PUT { public: boolean }: whether searchers must sign in. */
export function searchAccessAdminRoutes(access: SearchAccess, token: string) {
  return async (app: FastifyInstance): Promise<void> => {
    await app.register(async (scope) => {
      scope.addHook('onRequest', adminTokenHook(token));
      strictAdminSchemas(scope);
      scope.get('/api/admin/search-access', async () => access.status());
      scope.put<{ Body: { public: boolean } }>(
        '/api/admin/search-access',
        { schema: { body: { type: 'object', required: ['public'], additionalProperties: false, properties: { public: { type: 'boolean' } } } } },
        async (request) => access.setPublic(request.body.public),
      );
    });
  };
}
