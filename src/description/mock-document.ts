// Derives the document Prism serves from the bundled description.
//
// Prism ignores the path part of server URLs, so a resource path written `/monitors` under the server
// `https://host/api` would be served at `/monitors`. The mock document writes every resource path with its
// `/api` root (`/api/monitors`) and keeps the identity-provider paths (those with their own servers) at the
// host's root, which gives the URL shape of a real data center: API root `http://host:port/api`, identity
// provider `http://host:port`. Code samples are left out: they are for readers.

import { isRecord, type OpenApiDocument, type PathItem, perDocument } from './openapi.js';

export const apiRoot = '/api';

export function mockDocument(bundle: OpenApiDocument): OpenApiDocument {
  const document = structuredClone(bundle);
  const paths: Record<string, PathItem> = {};
  // A description may have no paths (OpenAPI 3.1 allows it): its mock serves none.
  for (const [route, item] of Object.entries(document.paths ?? {})) {
    const onIdentityProvider = Array.isArray(item.servers);
    delete item.servers;
    for (const operation of Object.values(item)) {
      if (isRecord(operation)) delete operation['x-codeSamples'];
    }
    paths[onIdentityProvider ? route : `${apiRoot}${route}`] = item;
  }
  document.paths = paths;
  document.servers = [{ url: '/', description: 'The mock: API root under /api, identity provider at the root.' }];
  return document;
}

/** The mock document of a description, made once per description object. */
export const mockDocumentOf = perDocument(mockDocument);
