// Redocly plugin: the conventions of this description that Redocly's built-in rules cannot express, and the
// decorators that write derived text into the bundle (enum tables, each operation's scope line).
// Plain JavaScript because Redocly loads plugins without a TypeScript step.
//
// Every rule reports at the file and line of the fault in openapi/. CONTRIBUTING.md lists the conventions and the
// rule that enforces each; test/integration/lint.test.ts seeds a violation of each rule and checks that lint names it.
import { readFileSync } from 'node:fs';

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** The header scheme that every resource operation requires, and the OAuth 2.0 scheme whose scopes it names. */
const TOKEN_SCHEME = 'ServiceOAuthToken';
const FLOW_SCHEME = 'ServiceOAuth2';
const SCOPE_LINE = '**Scope:**';
const INFERRED = "inferred from the scope table: the documents do not name this endpoint's scope";

// ---------------------------------------------------------------------------------------------------------------
// The registry of extension keys (EXTENSIONS.md at the root): one table, whose first column is the key in backticks.

export const extensionsFile = new URL('../EXTENSIONS.md', import.meta.url);

/** The `x-` keys of the table of EXTENSIONS.md, in its order. */
export function registeredExtensions(markdown = readFileSync(extensionsFile, 'utf8')) {
  const keys = [];
  for (const line of markdown.split('\n')) {
    const match = /^\|\s*`(x-[A-Za-z0-9_-]+)`\s*\|/.exec(line);
    if (match) keys.push(match[1]);
  }
  return keys;
}

// ---------------------------------------------------------------------------------------------------------------
// Rules

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

/** The security requirements that apply to an operation: its own, or the root's. */
function requirementsOf(operation, rootSecurity) {
  return Array.isArray(operation.security) ? operation.security : Array.isArray(rootSecurity) ? rootSecurity : [];
}

/**
 * A resource operation requires exactly one thing, the header scheme ServiceOAuthToken, and names its scope as that
 * requirement's role list: `security: [{ ServiceOAuthToken: [Service.Admin.Read] }]`. The scope is one of the
 * ServiceOAuth2 flow's scopes. `x-scope-inferred: true` marks a scope the documents do not name; the decorator
 * `service/scope-line` writes the "**Scope:**" line of the description from the requirement (saying "inferred"),
 * so the description does not write its own. Operations with `security: []` (the identity provider) are skipped.
 */
function OperationScopeDeclared() {
  const schemes = new Map();
  const pending = [];
  let rootSecurity;
  return {
    Root: {
      enter(root) {
        rootSecurity = root.security;
      },
      leave() {
        const flow = schemes.get(FLOW_SCHEME);
        for (const { scope, location, report } of pending) {
          if (!flow || flow.type !== 'oauth2') {
            report({ message: `The scope ${scope} must be one of the scopes of the ${FLOW_SCHEME} flow, and there is no oauth2 scheme ${FLOW_SCHEME}.`, location });
          } else if (!flow.scopes.includes(scope)) {
            report({ message: `${scope} is not one of the scopes of the ${FLOW_SCHEME} flow.`, location });
          }
        }
      },
    },
    SecurityScheme(scheme, { key }) {
      const scopes = scheme.type === 'oauth2' ? Object.values(scheme.flows ?? {}).flatMap((flow) => Object.keys(flow?.scopes ?? {})) : [];
      schemes.set(String(key), { type: scheme.type, scopes });
    },
    Operation(operation, { report, location }) {
      const requirements = requirementsOf(operation, rootSecurity);
      if (requirements.length === 0) return; // the identity provider: no access token
      const where = Array.isArray(operation.security) ? location.child('security') : location.key();
      if ('x-scope-inferred' in operation && operation['x-scope-inferred'] !== true) {
        report({ message: 'x-scope-inferred is `true` or absent (the scope is then named by the documents).', location: location.child('x-scope-inferred') });
      }
      if (typeof operation.description === 'string' && operation.description.includes(SCOPE_LINE)) {
        report({
          message: `The description writes its own ${SCOPE_LINE} line: remove it. The decorator service/scope-line writes it from the security requirement.`,
          location: location.child('description'),
        });
      }
      if (!Array.isArray(operation.security)) {
        report({ message: `A resource operation declares its own security: [{ ${TOKEN_SCHEME}: [<scope>] }].`, location: where });
        return;
      }
      const [requirement] = requirements;
      const names = requirement && typeof requirement === 'object' ? Object.keys(requirement) : [];
      if (requirements.length !== 1 || names.length !== 1 || names[0] !== TOKEN_SCHEME) {
        report({
          message: `A resource operation requires ${TOKEN_SCHEME} alone, in one requirement: [{ ${TOKEN_SCHEME}: [<scope>] }], not ${JSON.stringify(requirements)}. ` +
            `(Schemes in one requirement are all required; ${FLOW_SCHEME} only documents how tokens are obtained.)`,
          location: where,
        });
        return;
      }
      const scopes = requirement[TOKEN_SCHEME];
      if (!Array.isArray(scopes) || scopes.length !== 1 || typeof scopes[0] !== 'string') {
        report({ message: `The ${TOKEN_SCHEME} requirement names exactly one scope, not [${(scopes ?? []).join(', ')}].`, location: where });
        return;
      }
      pending.push({ scope: scopes[0], location: location.child(['security', 0, TOKEN_SCHEME, 0]), report });
    },
  };
}

/** Every secured operation lists the error statuses every call can meet (401, 403, 500 by default). */
function SecuredOperationErrors(options) {
  const statuses = (options.statuses ?? ['401', '403', '500']).map(String);
  let rootSecurity;
  return {
    Root(root) {
      rootSecurity = root.security;
    },
    Operation(operation, { report, location }) {
      if (requirementsOf(operation, rootSecurity).length === 0) return;
      const listed = Object.keys(operation.responses ?? {});
      const missing = statuses.filter((status) => !listed.includes(status));
      if (missing.length > 0) {
        report({
          message: `A secured operation lists the responses ${statuses.join(', ')}; ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} missing.`,
          location: operation.responses ? location.child('responses').key() : location.key(),
        });
      }
    },
  };
}

const isObjectSchema = (schema) =>
  schema.type === 'object' || (Array.isArray(schema.type) && schema.type.includes('object')) || (schema.type === undefined && schema.properties !== undefined);

/** The subschemas of a schema, as [path from the schema, subschema]. */
function subschemas(schema) {
  const found = [];
  for (const keyword of ['allOf', 'anyOf', 'oneOf', 'prefixItems']) {
    if (Array.isArray(schema[keyword])) schema[keyword].forEach((item, index) => found.push([[keyword, index], item]));
  }
  for (const keyword of ['items', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'additionalProperties', 'unevaluatedProperties', 'unevaluatedItems']) {
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
function ResponseSchemasOpen() {
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
              message: 'An object schema of a response declares additionalProperties: true (unknown attributes may arrive within a version; generated types then carry them).',
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

/** Only the `x-` keys of the registry (EXTENSIONS.md) appear in the description. */
function KnownExtensions() {
  let known;
  let failure;
  try {
    known = new Set(registeredExtensions());
  } catch (error) {
    failure = `The registry of extension keys, EXTENSIONS.md, cannot be read: ${error.message}`;
  }
  let reported = false;
  return {
    any(node, { type, report, location }) {
      if (!node || typeof node !== 'object' || Array.isArray(node) || !type?.extensionsPrefix) return;
      for (const key of Object.keys(node)) {
        if (!key.startsWith(type.extensionsPrefix)) continue;
        if (failure) {
          if (!reported) report({ message: failure, location: location.child(key).key() });
          reported = true;
          return;
        }
        if (!known.has(key)) {
          report({
            message: `${key} is not in the registry of extension keys: add a row to EXTENSIONS.md (where it appears, what reads it, why), or use a registered key.`,
            location: location.child(key).key(),
          });
        }
      }
    },
  };
}

/** An operationId starts with a verb that fits its method (`verbs` option: method → verbs), then a capital. */
function OperationIdVerb(options) {
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

/** The file name of a path in openapi/paths/ and openapi/code_samples/: `/monitors/{monitor_id}` → `monitors@{monitor_id}`. */
const pathStem = (route) => route.replace(/^\//, '').replace(/\//g, '@');

/**
 * Every operation has a curl and a TypeScript sample, each a file `code_samples/<lang>/<path>/<method>.<ext>` next
 * to openapi.yaml, referenced from x-codeSamples with `source: { $ref }`; no line is longer than `maxLineLength`
 * (the docs must read on a phone); curl samples take their addresses from `$API_ROOT` / `$AUTH_URL`, never a host.
 */
function CodeSamples(options) {
  const maxLineLength = options.maxLineLength ?? 56;
  const samples = options.samples ?? [
    { label: 'curl', lang: 'Shell', folder: 'curl', extension: 'sh' },
    { label: 'TypeScript', lang: 'TypeScript', folder: 'TypeScript', extension: 'ts' },
  ];
  let route = '';
  return {
    PathItem: {
      enter(_item, { key }) {
        route = String(key);
      },
      Operation(operation, { report, location, resolve, key }) {
        const method = String(key);
        const list = operation['x-codeSamples'];
        const listed = Array.isArray(list) ? list : [];
        const labels = listed.map((sample) => sample?.label);
        const expected = samples.map((sample) => sample.label);
        if (JSON.stringify(labels) !== JSON.stringify(expected)) {
          report({ message: `x-codeSamples holds the samples ${expected.join(', ')}, in this order (it has ${labels.join(', ') || 'none'}).`, location: Array.isArray(list) ? location.child('x-codeSamples') : location.key() });
          return;
        }
        const secured = Array.isArray(operation.security) ? operation.security.length > 0 : true;
        listed.forEach((sample, index) => {
          const spec = samples[index];
          const where = location.child(['x-codeSamples', index]);
          const file = `code_samples/${spec.folder}/${pathStem(route)}/${method}.${spec.extension}`;
          if (sample.lang !== spec.lang) report({ message: `The ${spec.label} sample has lang ${spec.lang}.`, location: where.child('lang') });
          const reference = sample.source?.$ref;
          if (typeof reference !== 'string' || !reference.replace(/\\/g, '/').endsWith(file)) {
            report({ message: `The ${spec.label} sample is a file, source: { $ref: .../${file} } (openapi/${file}).`, location: where.child('source') });
            return;
          }
          const { node: text } = resolve(sample.source);
          if (typeof text !== 'string') {
            report({ message: `The ${spec.label} sample openapi/${file} cannot be read.`, location: where.child('source') });
            return;
          }
          text.split('\n').forEach((line, number) => {
            if (line.length > maxLineLength) {
              report({ message: `openapi/${file}:${number + 1} is ${line.length} characters long; sample lines are at most ${maxLineLength} (the docs must read on a phone).`, location: where.child('source') });
            }
          });
          if (spec.folder === 'curl') {
            const variable = secured ? '$API_ROOT' : '$AUTH_URL';
            if (/\bhttps?:\/\//.test(text) || !text.includes(variable)) {
              report({ message: `The curl sample openapi/${file} takes its address from ${variable} (set once in the Quick start), never a host.`, location: where.child('source') });
            }
          }
        });
      },
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Decorators

function escapeCell(text) {
  return String(text).replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/** The first line of the table the decorator `service/enum-tables` writes (readers of descriptions cut it off there). */
export const ENUM_TABLE_START = '| Value |';

/** Letters and digits only, lower case: "Configuration Error" and `ConfigurationError` read the same. */
const comparable = (text) => String(text).toLowerCase().replace(/[^a-z0-9]/g, '');

/** A list of values in words: `a, b, c`, or "none". */
const listed = (items) => (Array.isArray(items) && items.length > 0 ? items.map((item) => `\`${item}\``).join(', ') : 'none');

/**
 * The facts that some enums keep per value in an `x-` key (EXTENSIONS.md), shown as more columns of their table, so
 * that one row answers a question ("which units of time does period 7 support?"). `cell(fact, value, schema,
 * names)` writes a cell; `names` holds the value meanings of the schemas named in `uses`.
 */
const FACT_COLUMNS = [
  { key: 'x-period-ranges', title: 'Range', cell: (range) => range },
  {
    key: 'x-supported-granularities',
    title: 'Units of time',
    uses: 'UnitOfTime',
    cell: (units, value, schema, names) => {
      const unit = (id) => `${names.UnitOfTime?.get(id) ?? ''} (${id})`.trim();
      if (Array.isArray(units)) return units.map(unit).join(', ');
      const rule = schema['x-custom-period-rule'];
      if (rule && rule.period === value) {
        return `${rule.granularity}; ${unit(rule['raw-data-unit-of-time'])} only if both dates lie within the last ${rule['raw-data-within-last-days']} days`;
      }
      return '';
    },
  },
  { key: 'x-unsupported-monitor-types', title: 'Monitor types not supported', cell: (types) => listed(types) },
  { key: 'x-browser-versions', title: 'Browser version', cell: (version) => (version === undefined ? '' : String(version)) },
  {
    key: 'x-search-config-fields',
    title: 'Search config fields',
    cell: (fields) => (fields ? Object.entries(fields).map(([field, type]) => `\`${field}\` (${type})`).join(', ') : ''),
  },
];

/**
 * Appends a Markdown table of each enum's values to its description (Redoc shows neither x-enum-descriptions nor the
 * facts kept per value). The columns: the value; its meaning, unless every meaning only repeats its value (in a table
 * with meanings, a row whose meaning repeats its value leaves the cell empty); then one column per fact of
 * FACT_COLUMNS that the schema keeps. The names for code (x-enum-varnames) are the documents' meanings run together,
 * so they are not repeated here: `generated/constants.ts` has them.
 */
function EnumTables() {
  /** Value → meaning, of the named schemas that fact columns refer to. */
  const names = {};
  return {
    Root: {
      enter(root, { resolve }) {
        for (const name of new Set(FACT_COLUMNS.map((column) => column.uses).filter(Boolean))) {
          let schema = root.components?.schemas?.[name];
          if (schema && typeof schema.$ref === 'string') schema = resolve(schema).node;
          if (!schema || !Array.isArray(schema.enum)) continue;
          names[name] = new Map(schema.enum.map((value, i) => [value, schema['x-enum-descriptions']?.[i] ?? '']));
        }
      },
    },
    Schema: {
      leave(schema) {
        if (!Array.isArray(schema.enum) || !Array.isArray(schema['x-enum-descriptions'])) return;
        if ((schema.description ?? '').split('\n').some((line) => line.startsWith(ENUM_TABLE_START))) return;
        const meanings = schema['x-enum-descriptions'];
        const adds = schema.enum.map((value, i) => comparable(meanings[i] ?? '') !== comparable(value));
        const columns = [{ title: 'Value', cell: (value) => `\`${JSON.stringify(value)}\`` }];
        if (adds.some(Boolean)) columns.push({ title: 'Meaning', cell: (_value, i) => (adds[i] ? meanings[i] : '') });
        for (const column of FACT_COLUMNS) {
          const facts = schema[column.key];
          if (!facts || typeof facts !== 'object') continue;
          columns.push({ title: column.title, cell: (value) => column.cell(facts[String(value)], value, schema, names) });
        }
        const row = (cells) => `| ${cells.map(escapeCell).join(' | ')} |`;
        const table = [
          row(columns.map((column) => column.title)),
          `|${columns.map(() => '---|').join('')}`,
          ...schema.enum.map((value, i) => row(columns.map((column) => column.cell(value, i)))),
        ].join('\n');
        schema.description = schema.description ? `${schema.description.trimEnd()}\n\n${table}\n` : `${table}\n`;
      },
    },
  };
}

/**
 * Appends "**Scope:** `<scope>`" to the description of each operation, from its ServiceOAuthToken requirement (the one
 * place that holds the fact), saying when the scope is inferred (`x-scope-inferred: true`).
 */
function ScopeLine() {
  return {
    Operation: {
      leave(operation) {
        const requirement = Array.isArray(operation.security) ? operation.security.find((entry) => entry && Array.isArray(entry[TOKEN_SCHEME])) : undefined;
        const scope = requirement?.[TOKEN_SCHEME]?.[0];
        if (typeof scope !== 'string') return;
        const description = String(operation.description ?? '').trimEnd();
        if (description.includes(SCOPE_LINE)) return;
        const line = operation['x-scope-inferred'] === true ? `${SCOPE_LINE} \`${scope}\` (${INFERRED}).` : `${SCOPE_LINE} \`${scope}\`.`;
        operation.description = description ? `${description}\n\n${line}\n` : `${line}\n`;
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
        'secured-operation-errors': SecuredOperationErrors,
        'response-schemas-open': ResponseSchemasOpen,
        'known-extensions': KnownExtensions,
        'operation-id-verb': OperationIdVerb,
        'code-samples': CodeSamples,
      },
    },
    decorators: {
      oas3: {
        'enum-tables': EnumTables,
        'scope-line': ScopeLine,
      },
    },
  };
}
