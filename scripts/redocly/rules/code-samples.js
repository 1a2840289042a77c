/** The file name of a path in openapi/paths/ and openapi/code_samples/: `/monitors/{monitor_id}` → `monitors@{monitor_id}`. */
const pathStem = (route) => route.replace(/^\//, '').replace(/\//g, '@');

/**
 * Every operation has a curl and a TypeScript sample, each a file `code_samples/<lang>/<path>/<method>.<ext>` next
 * to openapi.yaml, referenced from x-codeSamples with `source: { $ref }`; no line is longer than `maxLineLength`
 * (the docs must read on a phone); curl samples take their addresses from `$API_ROOT` / `$AUTH_URL`, never a host.
 */
export function CodeSamples(options) {
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
          report({
            message: `x-codeSamples holds the samples ${expected.join(', ')}, in this order (it has ${labels.join(', ') || 'none'}).`,
            location: Array.isArray(list) ? location.child('x-codeSamples') : location.key(),
          });
          return;
        }
        const secured = Array.isArray(operation.security) ? operation.security.length > 0 : true;
        listed.forEach((sample, index) => {
          const spec = samples[index];
          const where = location.child(['x-codeSamples', index]);
          const file = `code_samples/${spec.folder}/${pathStem(route)}/${method}.${spec.extension}`;
          if (sample.lang !== spec.lang)
            report({ message: `The ${spec.label} sample has lang ${spec.lang}.`, location: where.child('lang') });
          const reference = sample.source?.$ref;
          if (typeof reference !== 'string' || !reference.replace(/\\/g, '/').endsWith(file)) {
            report({
              message: `The ${spec.label} sample is a file, source: { $ref: .../${file} } (openapi/${file}).`,
              location: where.child('source'),
            });
            return;
          }
          const { node: text } = resolve(sample.source);
          if (typeof text !== 'string') {
            report({ message: `The ${spec.label} sample openapi/${file} cannot be read.`, location: where.child('source') });
            return;
          }
          text.split('\n').forEach((line, number) => {
            if (line.length > maxLineLength) {
              report({
                message: `openapi/${file}:${number + 1} is ${line.length} characters long; sample lines are at most ${maxLineLength} (the docs must read on a phone).`,
                location: where.child('source'),
              });
            }
          });
          if (spec.folder === 'curl') {
            const variable = secured ? '$API_ROOT' : '$AUTH_URL';
            if (/\bhttps?:\/\//.test(text) || !text.includes(variable)) {
              report({
                message: `The curl sample openapi/${file} takes its address from ${variable} (set once in the Quick start), never a host.`,
                location: where.child('source'),
              });
            }
          }
        });
      },
    },
  };
}
