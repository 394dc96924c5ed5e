/**
 * GET /opensearch.xml — an OpenSearch description, so that a browser can add the site search
 * (the search page links it with <link rel="search">). Its URLs are made from the request's
 * host, so the description is right behind any name the server answers to.
 */
import type { FastifyInstance } from 'fastify';

const escapeXml = (text: string) => text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function registerOpenSearchRoute(app: FastifyInstance, siteName: string | undefined): void {
  app.get('/opensearch.xml', async (request, reply) => {
    const origin = `${request.protocol}://${request.host}`;
    const name = siteName ? `${siteName} search` : 'Site search';
    reply.type('application/opensearchdescription+xml; charset=utf-8');
    return `<?xml version="1.0" encoding="UTF-8"?>
<OpenSearchDescription xmlns="http://a9.com/-/spec/opensearch/1.1/">
  <ShortName>${escapeXml((siteName ?? 'Site search').slice(0, 16))}</ShortName>
  <Description>${escapeXml(name)}: pages ranked by text relevance and estimated global PageRank</Description>
  <InputEncoding>UTF-8</InputEncoding>
  <Url type="text/html" method="get" template="${escapeXml(origin)}/?q={searchTerms}"/>
  <Url type="application/x-suggestions+json" template="${escapeXml(origin)}/api/suggest?q={searchTerms}&amp;format=opensearch"/>
  <Url type="application/opensearchdescription+xml" rel="self" template="${escapeXml(origin)}/opensearch.xml"/>
</OpenSearchDescription>
`;
  });
}
