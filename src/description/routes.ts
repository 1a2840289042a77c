// The routes of a (mock) document: which operation a method and path reach, and what the operation documents
// (statuses, named examples, security). The mock front uses it to answer what Prism answers badly or not at all.
import {
  deref,
  type Example,
  type HttpMethod,
  httpMethods,
  isRecord,
  type OpenApiDocument,
  parametersOf,
  perDocument,
  type Response,
  type SchemaNode,
  type SecurityRequirement,
  type SecurityScheme,
} from './openapi.js';

export interface RouteOperation {
  method: HttpMethod;
  /** The path template of the document, e.g. /api/monitors/{monitor_id}. */
  template: string;
  operationId: string;
  /** Documented statuses, as strings ('200', '404', 'default'). */
  statuses: string[];
  /** Named examples of each documented status (first media type with examples). */
  examples: Record<string, Record<string, unknown>>;
  /** The media types the request body accepts; empty when the operation takes no body. */
  requestMediaTypes: string[];
  /** Header names (lower case) that the security requirements need; empty when a call may be anonymous. */
  securityHeaders: string[];
  /** The operation's parameters (path-level ones included), with their schemas resolved. */
  parameters: { name: string; in: string; required: boolean; schema: SchemaNode }[];
  /**
   * The named examples of a request that pair with an answer: a name that is an example of one or more parameters
   * and of a documented status (`MonitorNotFound`: `monitor_id` `1`, and the 404 of that name), as tools that pair
   * examples by name read them (Specmatic, Microcks).
   */
  pairedExamples: PairedExample[];
}

/** A named example of a request (the values its parameters take) and the status whose answer has the same name. */
export interface PairedExample {
  name: string;
  status: string;
  parameters: { name: string; in: string; value: string }[];
}

export interface Route {
  template: string;
  segments: { literal: string | null }[];
  operations: Map<string, RouteOperation>;
}

export interface RouteMatch {
  route: Route;
  operation: RouteOperation | undefined;
}

export function compileRoutes(document: OpenApiDocument): Route[] {
  const routes: Route[] = [];
  for (const [template, item] of Object.entries(document.paths ?? {})) {
    const operations = new Map<string, RouteOperation>();
    for (const method of httpMethods) {
      const operation = item[method];
      if (!operation) continue;
      const responses = operation.responses ?? {};
      const requestBody = deref(document, operation.requestBody);
      const examples = namedExamples(document, responses);
      const parameters = parametersOf(document, item, operation);
      operations.set(method, {
        method,
        template,
        operationId: operation.operationId ?? `${method} ${template}`,
        statuses: Object.keys(responses),
        examples,
        requestMediaTypes: Object.keys(requestBody?.content ?? {}),
        securityHeaders: securityHeaders(document, operation.security ?? document.security ?? []),
        parameters: parameters.map((parameter) => ({
          name: String(parameter.name),
          in: String(parameter.in),
          required: parameter.required === true,
          schema: deref(document, parameter.schema) ?? {},
        })),
        pairedExamples: pairedExamples(document, parameters, examples),
      });
    }
    routes.push({
      template,
      segments: template
        .split('/')
        .slice(1)
        .map((segment) => ({ literal: /^\{[^}]+\}$/.test(segment) ? null : segment })),
      operations,
    });
  }
  return routes;
}

/** The routes of a document, compiled once per document object: every mock and simulator of it shares them. */
export const routesOf = perDocument(compileRoutes);

/** The named examples of each status: those of the first media type that has examples. */
function namedExamples(document: OpenApiDocument, responses: Record<string, Response>): Record<string, Record<string, unknown>> {
  const examples: Record<string, Record<string, unknown>> = {};
  for (const [status, raw] of Object.entries(responses)) {
    const response = deref(document, raw) ?? {};
    const media = Object.values(response.content ?? {}).find((entry) => entry.examples || entry.example !== undefined);
    const named: Record<string, unknown> = {};
    for (const [name, example] of Object.entries(media?.examples ?? {})) named[name] = deref(document, example)?.value;
    examples[status] = named;
  }
  return examples;
}

/** The names of the parameters' examples that are also the names of an answer's examples, with their values. */
function pairedExamples(
  document: OpenApiDocument,
  parameters: ReturnType<typeof parametersOf>,
  answers: Record<string, Record<string, unknown>>,
): PairedExample[] {
  const requests = new Map<string, PairedExample['parameters']>();
  for (const parameter of parameters) {
    for (const [name, example] of Object.entries<Example>(parameter.examples ?? {})) {
      const value = deref(document, example)?.value;
      if (value === undefined || (typeof value === 'object' && value !== null)) continue;
      requests.set(name, [...(requests.get(name) ?? []), { name: String(parameter.name), in: String(parameter.in), value: String(value) }]);
    }
  }
  return [...requests].flatMap(([name, values]) => {
    const status = Object.keys(answers).find((code) => /^\d{3}$/.test(code) && Object.hasOwn(answers[code]!, name));
    return status === undefined ? [] : [{ name, status, parameters: values }];
  });
}

/** The header names (lower case) that security requirements need: none when one of them is empty (anonymous). */
function securityHeaders(document: OpenApiDocument, requirements: SecurityRequirement[]): string[] {
  const anonymous = requirements.length === 0 || requirements.some((requirement) => Object.keys(requirement).length === 0);
  if (anonymous) return [];
  const schemes = document.components?.securitySchemes ?? {};
  return [
    ...new Set(
      requirements.flatMap((requirement) =>
        Object.keys(requirement)
          .map((name) => schemes[name])
          .filter((scheme): scheme is SecurityScheme => scheme?.type === 'apiKey' && scheme.in === 'header')
          .map((scheme) => String(scheme.name).toLowerCase()),
      ),
    ),
  ];
}

/**
 * The route of a path (already split into percent-decoded segments after the leading slash). Literal segments
 * win over template segments; a template segment never matches an empty segment.
 */
export function matchRoute(routes: Route[], segments: string[], method: string): RouteMatch | undefined {
  let best: { route: Route; literals: number } | undefined;
  for (const route of routes) {
    if (route.segments.length !== segments.length) continue;
    let literals = 0;
    const matches = route.segments.every((segment, index) => {
      const actual = segments[index]!;
      if (segment.literal === null) return actual.length > 0;
      literals++;
      return segment.literal === actual;
    });
    if (matches && (!best || literals > best.literals)) best = { route, literals };
  }
  return best && { route: best.route, operation: best.route.operations.get(method.toLowerCase()) };
}

/** An operation as a reader names it: `GET /monitors/{monitor_id}`. */
export const describeOperation = (operation: RouteOperation) => `${operation.method.toUpperCase()} ${operation.template}`;

/** The `code` of the operation's first documented example for a status, for answers the mock makes itself; else the status. */
export function documentedCode(operation: RouteOperation | undefined, status: number): number {
  const example = Object.values(operation?.examples[String(status)] ?? {})[0];
  return isRecord(example) && typeof example.code === 'number' ? example.code : status;
}
