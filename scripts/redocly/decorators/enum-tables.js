function escapeCell(text) {
  return String(text).replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/** The first line of the table the decorator `service/enum-tables` writes (readers of descriptions cut it off there). */
export const ENUM_TABLE_START = '| Value |';

/** Letters and digits only, lower case: "Configuration Error" and `ConfigurationError` read the same. */
const comparable = (text) =>
  String(text)
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');

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
    cell: (fields) =>
      fields
        ? Object.entries(fields)
            .map(([field, type]) => `\`${field}\` (${type})`)
            .join(', ')
        : '',
  },
];

/**
 * Appends a Markdown table of each enum's values to its description (Redoc shows neither x-enum-descriptions nor the
 * facts kept per value). The columns: the value; its meaning, unless every meaning only repeats its value (in a table
 * with meanings, a row whose meaning repeats its value leaves the cell empty); then one column per fact of
 * FACT_COLUMNS that the schema keeps. The names for code (x-enum-varnames) are the documents' meanings run together,
 * so they are not repeated here: `generated/constants.ts` has them.
 */
export function EnumTables() {
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
