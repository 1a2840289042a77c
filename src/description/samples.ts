// One valid request per operation of the bundled description, at the mock's URL shape, built from the
// description's own examples (path parameters, required query parameters, the first request-body example).
// The benchmarks and the mock's tests start from these; the bad-input test breaks them one way at a time.
import { mockDocument } from './mock-document.js';
import { deref, httpMethods, type Json } from './openapi.js';

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
  bodyValue?: Json;
  body?: string;
  /** The operation's request-body schema (dereferenced once), for generating faults. */
  bodySchema?: Json | undefined;
  /** The first documented 2xx status. */
  status: number;
  /** The operation, from the mock document. */
  operation: Json;
}

/** The example of a parameter, media type or schema: its `example`, its first named example, or its schema's. */
export function exampleOf(document: Json, node: Json | undefined): unknown {
  const item = deref(document, node);
  if (!item) return undefined;
  if (item.example !== undefined) return item.example;
  if (item.examples && !Array.isArray(item.examples)) return deref(document, Object.values<Json>(item.examples)[0])?.value;
  const schema = deref(document, item.schema) ?? item;
  if (schema.examples?.[0] !== undefined) return schema.examples[0];
  if (schema.example !== undefined) return schema.example;
  if (schema.default !== undefined) return schema.default;
  return undefined;
}

/** Serializes a body as the media type says (JSON, or form fields). */
export function serializeBody(mediaType: string, value: Json): string {
  if (mediaType.split(';')[0]!.trim() === 'application/x-www-form-urlencoded') {
    return new URLSearchParams(Object.entries(value).map(([key, field]) => [key, String(field)])).toString();
  }
  return JSON.stringify(value);
}

export function sampleRequests(bundle: Json): SampleRequest[] {
  const document = mockDocument(bundle);
  const samples: SampleRequest[] = [];
  for (const [template, item] of Object.entries<Json>(document.paths)) {
    for (const method of httpMethods) {
      const operation: Json | undefined = item[method];
      if (!operation) continue;
      const parameters = [...(item.parameters ?? []), ...(operation.parameters ?? [])].map((parameter: Json) => deref(document, parameter)!);
      let path = template;
      const query = new URLSearchParams();
      for (const parameter of parameters) {
        const value = exampleOf(document, parameter);
        if (parameter.in === 'path') path = path.replace(`{${parameter.name}}`, encodeURIComponent(String(value ?? '1')));
        if (parameter.in === 'query' && parameter.required) query.set(parameter.name, String(value ?? ''));
      }
      const headers: Record<string, string> = { Accept: 'application/json; version=2.0' };
      const requirements: Json[] = operation.security ?? document.security ?? [];
      if (requirements.some((requirement) => 'ServiceOAuthToken' in requirement)) headers.Authorization = sampleToken;
      const requestBody = deref(document, operation.requestBody);
      const sample: SampleRequest = {
        operationId: operation.operationId,
        method: method.toUpperCase(),
        template,
        path: query.size > 0 ? `${path}?${query}` : path,
        headers,
        status: Number(Object.keys(operation.responses).find((status) => status.startsWith('2')) ?? 200),
        operation,
      };
      const [mediaType, media] = Object.entries<Json>(requestBody?.content ?? {})[0] ?? [];
      if (mediaType && media) {
        const value = exampleOf(document, media) as Json | undefined;
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
