// Redocly plugin: the conventions of this description that Redocly's built-in rules cannot express,
// and the decorator that shows every enumeration's names and meanings in the rendered docs.
// Plain JavaScript because Redocly loads plugins without a TypeScript step.

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Every enum carries a valid, unique name and a meaning for each value, in lists as long as the enum. */
function EnumValuesNamed() {
  return {
    Schema(schema, { report, location }) {
      if (!Array.isArray(schema.enum)) return;
      const names = schema['x-enum-varnames'];
      const meanings = schema['x-enum-descriptions'];
      if (!Array.isArray(names) || !Array.isArray(meanings)) {
        report({
          message: 'An enum needs x-enum-varnames (a name per value) and x-enum-descriptions (a meaning per value).',
          location: location.child('enum').key(),
        });
        return;
      }
      if (names.length !== schema.enum.length || meanings.length !== schema.enum.length) {
        report({
          message: `enum has ${schema.enum.length} values, x-enum-varnames ${names.length}, x-enum-descriptions ${meanings.length}: they must match.`,
          location: location.child('x-enum-varnames'),
        });
      }
      names.forEach((name, i) => {
        if (typeof name !== 'string' || !IDENTIFIER.test(name)) {
          report({ message: `x-enum-varnames[${i}] "${name}" is not a valid identifier.`, location: location.child(['x-enum-varnames', i]) });
        } else if (names.indexOf(name) !== i) {
          report({ message: `x-enum-varnames[${i}] "${name}" is used twice.`, location: location.child(['x-enum-varnames', i]) });
        }
      });
      meanings.forEach((meaning, i) => {
        if (typeof meaning !== 'string' || meaning.trim() === '') {
          report({ message: `x-enum-descriptions[${i}] is empty.`, location: location.child(['x-enum-descriptions', i]) });
        }
      });
    },
  };
}

/** A resource operation names its scope in x-scope, and requires exactly that scope of the OAuth 2.0 scheme. */
function OperationScopeDeclared() {
  return {
    Operation(operation, { report, location }) {
      const requirements = operation.security;
      if (!Array.isArray(requirements) || requirements.length === 0) return; // identity-provider calls: no token
      const scope = operation['x-scope'];
      if (typeof scope !== 'string') {
        report({ message: 'A secured operation declares its scope in x-scope.', location: location.key() });
        return;
      }
      const declared = requirements.flatMap((requirement) => requirement.ServiceOAuth2 ?? []);
      if (declared.length !== 1 || declared[0] !== scope) {
        report({
          message: `x-scope is ${scope} but the ServiceOAuth2 requirement lists [${declared.join(', ')}].`,
          location: location.child('security'),
        });
      }
      if (operation['x-scope-inferred'] && !/inferred/.test(operation.description ?? '')) {
        report({ message: 'An inferred scope is said to be inferred in the description.', location: location.child('description') });
      }
    },
  };
}

function escapeCell(text) {
  return String(text).replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/** Appends a Markdown table of value, name and meaning to every enum's description (Redoc ignores x- lists). */
function EnumTables() {
  return {
    Schema: {
      leave(schema) {
        if (!Array.isArray(schema.enum) || !Array.isArray(schema['x-enum-varnames'])) return;
        if ((schema.description ?? '').includes('| Value | Name | Meaning |')) return;
        const meanings = schema['x-enum-descriptions'] ?? [];
        const rows = schema.enum.map(
          (value, i) => `| \`${escapeCell(JSON.stringify(value))}\` | ${escapeCell(schema['x-enum-varnames'][i])} | ${escapeCell(meanings[i] ?? '')} |`,
        );
        const table = ['| Value | Name | Meaning |', '|---|---|---|', ...rows].join('\n');
        schema.description = schema.description ? `${schema.description.trimEnd()}\n\n${table}\n` : `${table}\n`;
      },
    },
  };
}

export default function servicePlugin() {
  return {
    id: 'service',
    rules: {
      oas3: {
        'enum-values-named': EnumValuesNamed,
        'operation-scope-declared': OperationScopeDeclared,
      },
    },
    decorators: {
      oas3: {
        'enum-tables': EnumTables,
      },
    },
  };
}
