// One valid request per operation of the bundled description, at the mock's URL shape, built from the
// description's own examples (path parameters, required query parameters, the first request-body example).
// The benchmarks and the mock's tests start from these; the bad-input test breaks them one way at a time.
import { exampleOf, requestTarget, serializeBody } from '../../src/description/examples.js';
import { mockDocument } from '../../src/description/mock-document.js';
import { deref, httpMethods, type OpenApiDocument, type Operation, parametersOf, type SchemaNode } from '../../src/description/openapi.js';

export { serializeBody };

export const sampleToken = 'Service-oauthtoken 1000.sample-access-token';

export interface SampleRequest {
  operationId: string;
  method: string;
  /** The path template of the mock document, e.g. /api/monitors/{monitor_id}. */
  template: string;
  /** The path with example values, e.g. /api/monitors/169863000000025001. */
  path: string;
  headers: Record<string, string>;
  /** The media type of the body, when the operation takes one. */
  mediaType?: string;
  /** The example body as a value (object), and as sent. */
  bodyValue?: unknown;
  body?: string;
  /** The operation's request-body schema (dereferenced once), for generating faults. */
  bodySchema?: SchemaNode | undefined;
  /** The first documented 2xx status. */
  status: number;
  /** The operation, from the mock document. */
  operation: Operation;
}

export function sampleRequests(bundle: OpenApiDocument): SampleRequest[] {
  const document = mockDocument(bundle);
  const samples: SampleRequest[] = [];
  for (const [template, item] of Object.entries(document.paths ?? {})) {
    for (const method of httpMethods) {
      const operation = item[method];
      if (!operation) continue;
      const headers: Record<string, string> = { Accept: 'application/json; version=2.0' };
      const requirements = operation.security ?? document.security ?? [];
      if (requirements.some((requirement) => 'ServiceOAuthToken' in requirement)) headers.Authorization = sampleToken;
      const requestBody = deref(document, operation.requestBody);
      const sample: SampleRequest = {
        operationId: operation.operationId ?? `${method} ${template}`,
        method: method.toUpperCase(),
        template,
        path: requestTarget(template, parametersOf(document, item, operation), (parameter) => exampleOf(document, parameter)),
        headers,
        status: Number(Object.keys(operation.responses ?? {}).find((status) => status.startsWith('2')) ?? 200),
        operation,
      };
      const [mediaType, media] = Object.entries(requestBody?.content ?? {})[0] ?? [];
      if (mediaType && media) {
        const value = exampleOf(document, media);
        sample.mediaType = mediaType;
        sample.bodySchema = deref(document, media.schema);
        if (value !== undefined) {
          sample.bodyValue = value;
          sample.body = serializeBody(mediaType, value);
          sample.headers['Content-Type'] = mediaType;
        }
      }
      samples.push(sample);
    }
  }
  return samples;
}
