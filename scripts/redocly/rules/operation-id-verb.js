const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** An operationId starts with a verb that fits its method (`verbs` option: method → verbs), then a capital. */
export function OperationIdVerb(options) {
  const verbs = options.verbs ?? { get: ['get', 'list'], post: ['create'], put: ['update'], delete: ['delete'] };
  return {
    PathItem(item, { report, location }) {
      for (const method of METHODS) {
        const operation = item[method];
        if (!operation || typeof operation.operationId !== 'string') continue;
        const allowed = verbs[method] ?? [];
        const verb = /^[a-z]+/.exec(operation.operationId)?.[0] ?? '';
        const rest = operation.operationId.slice(verb.length);
        if (!allowed.includes(verb) || (rest !== '' && !/^[A-Z]/.test(rest))) {
          report({
            message: `The operationId ${operation.operationId} of a ${method.toUpperCase()} starts with one of the verbs ${allowed.join(', ') || '(none configured)'}, then a capital letter.`,
            location: location.child([method, 'operationId']),
          });
        }
      }
    },
  };
}
