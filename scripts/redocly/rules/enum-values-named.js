const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Every enum carries a valid, unique name and a meaning for each value, in lists as long as the enum. */
export function EnumValuesNamed() {
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
          report({
            message: `x-enum-varnames[${i}] "${name}" is not a valid identifier.`,
            location: location.child(['x-enum-varnames', i]),
          });
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
