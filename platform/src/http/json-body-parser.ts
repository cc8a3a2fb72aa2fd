import type { FastifyInstance } from 'fastify';

/**
 * Replace fastify's JSON parser with one that reads an empty body as no body on a route that declares none. Many HTTP
 * clients and scripts send `content-type: application/json` on every request, bodiless POSTs and DELETEs included;
 * refusing those as invalid JSON breaks them for nothing. A route that declares a body still refuses an empty one as
 * before, and non-empty bodies go through fastify's own parser (prototype-poisoning protection included).
 */
export function installJsonBodyParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser(
    app.initialConfig.onProtoPoisoning ?? 'error',
    app.initialConfig.onConstructorPoisoning ?? 'error',
  );
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body.length === 0 && request.routeOptions.schema?.body === undefined) {
      done(null, undefined);
      return;
    }
    void parseJson(request, typeof body === 'string' ? body : body.toString('utf8'), done);
  });
}
