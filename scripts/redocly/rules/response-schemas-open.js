const isObjectSchema = (schema) =>
  schema.type === 'object' ||
  (Array.isArray(schema.type) && schema.type.includes('object')) ||
  (schema.type === undefined && schema.properties !== undefined);

/** The subschemas of a schema, as [path from the schema, subschema]. */
function subschemas(schema) {
  const found = [];
  for (const keyword of ['allOf', 'anyOf', 'oneOf', 'prefixItems']) {
    if (Array.isArray(schema[keyword]))
      schema[keyword].forEach((item, index) => {
        found.push([[keyword, index], item]);
      });
  }
  for (const keyword of [
    'items',
    'not',
    'if',
    'then',
    'else',
    'contains',
    'propertyNames',
    'additionalProperties',
    'unevaluatedProperties',
    'unevaluatedItems',
  ]) {
    if (schema[keyword] && typeof schema[keyword] === 'object') found.push([[keyword], schema[keyword]]);
  }
  for (const keyword of ['properties', 'patternProperties', 'dependentSchemas', '$defs']) {
    for (const [name, item] of Object.entries(schema[keyword] ?? {})) found.push([[keyword, name], item]);
  }
  return found;
}

/**
 * No response schema forbids unknown attributes (core document, section 9: new attributes may be added within a
 * version), and every object schema of a response, down to the nested and composed ones, says so with
 * `additionalProperties: true`, so that generated types carry an index signature for them.
 */
export function ResponseSchemasOpen() {
  const seen = new Set();
  return {
    Response: {
      MediaType(media, { report, resolve, location }) {
        const walk = (node, where) => {
          let schema = node;
          let at = where;
          for (let hops = 0; schema && typeof schema === 'object' && typeof schema.$ref === 'string' && hops < 20; hops++) {
            const resolved = resolve(schema, at.source.absoluteRef);
            if (!resolved.location) return;
            schema = resolved.node;
            at = resolved.location;
          }
          if (!schema || typeof schema !== 'object') return;
          const id = `${at.source.absoluteRef}${at.pointer}`;
          if (seen.has(id)) return;
          seen.add(id);
          let fault = false;
          for (const keyword of ['additionalProperties', 'unevaluatedProperties']) {
            if (schema[keyword] === false) {
              fault = true;
              report({
                message: `A response schema does not forbid unknown attributes (${keyword}: false): new attributes may arrive within a version. Use additionalProperties: true.`,
                location: at.child(keyword).key(),
              });
            }
          }
          if (!fault && isObjectSchema(schema) && schema.additionalProperties !== true) {
            report({
              message:
                'An object schema of a response declares additionalProperties: true (unknown attributes may arrive within a version; generated types then carry them).',
              location: schema.additionalProperties === undefined ? at.key() : at.child('additionalProperties').key(),
            });
          }
          for (const [path, item] of subschemas(schema)) walk(item, at.child(path));
        };
        if (media && media.schema !== undefined) walk(media.schema, location.child('schema'));
      },
    },
  };
}
