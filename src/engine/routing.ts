// The engine's routing, done once per operation instead of once per request. Prism's router scores every path of
// the document on every request; the mock has already matched the request with the description's own routes, so
// the engine gets only the operations that could answer it: the matched one, and any other of the same method whose
// path could match the same requests (e.g. `/a/{x}` and `/{y}/b`), in the document's order. Among those the
// engine's router decides as it would among all of them, since every other operation fails its path match; and
// where the route's operation is the only candidate, the engine's router is not asked again (`routedFirst`).

/** What the engine's router reads of an operation. */
interface RoutedOperation {
  method: string;
  path: string;
}

/** A path segment of a template holds a parameter when it has `{name}` in it (as the engine's router reads it). */
function isTemplated(segment: string): boolean {
  const open = segment.indexOf('{');
  return open !== -1 && segment.indexOf('}', open + 2) !== -1;
}

/** A literal segment as the engine's router compares it: percent-decoded when it decodes. */
function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Whether some request path could match both templates: as many segments, and each pair equal or one templated. */
function overlap(a: string, b: string): boolean {
  const left = a.split('/');
  const right = b.split('/');
  if (left.length !== right.length) return false;
  return left.every((segment, index) => {
    const other = right[index]!;
    return isTemplated(segment) || isTemplated(other) || decoded(segment) === decoded(other);
  });
}

/** The key of an operation in the table: its method (lower case) and path template. */
const keyOf = (method: string, path: string) => `${method.toLowerCase()} ${path}`;

/** For each operation, by method and path template, the operations the engine is handed for a request routed to it. */
export type OperationTable = ReadonlyMap<string, unknown[]>;

const tables = new WeakMap<unknown[], OperationTable>();

/** The candidates of the tables that are their route's operation alone. */
const alone = new WeakSet<unknown[]>();

/** The table of a list of the engine's operations, made once per list. */
export function operationTable(operations: unknown[]): OperationTable {
  let table = tables.get(operations);
  if (!table) {
    const routed = operations as RoutedOperation[];
    table = new Map(
      routed.map((operation) => {
        const candidates = routed.filter(
          (other) => other.method.toLowerCase() === operation.method.toLowerCase() && overlap(other.path, operation.path),
        );
        if (candidates.length === 1) alone.add(candidates);
        return [keyOf(operation.method, operation.path), candidates];
      }),
    );
    tables.set(operations, table);
  }
  return table;
}

/** The engine's router, as its `route` component: the operation of a request among `resources`, as an fp-ts Either. */
export type Router = (options: { resources: unknown[]; input: unknown }) => unknown;

/**
 * The engine's router, except for the candidates of a table that are their route's operation alone: the request
 * was routed to it by the description's routes, which match fewer paths than the engine's router (a parameter is
 * never empty), so the engine's router would give that operation too.
 */
export function routedFirst(router: Router): Router {
  return (options) => (alone.has(options.resources) ? { _tag: 'Right', right: options.resources[0] } : router(options));
}

/** The operations to hand the engine for a request routed to `method template`; undefined when the table has none. */
export function candidatesOf(table: OperationTable, method: string, template: string): unknown[] | undefined {
  return table.get(keyOf(method, template));
}
