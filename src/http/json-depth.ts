// How deep a JSON value nests. Parsing is iterative in V8 and takes any depth, but what walks a parsed value by
// recursion (a schema validator, structuredClone, a seed's checks) overflows the stack somewhere past a few thousand
// levels: the mock, the proxy and the seed reader refuse a value nested deeper than `maxJsonDepth` first, and say
// where. One pass over the value, with an explicit stack: linear in its size, whatever its depth.

/** The deepest nesting of arrays and objects the mock, the proxy and a seed take (the mock's own bound). */
export const maxJsonDepth = 256;

interface Frame {
  value: unknown;
  depth: number;
  parent: Frame | undefined;
  key: string;
}

const pointerOf = (frame: Frame): string => {
  const tokens: string[] = [];
  for (let at: Frame | undefined = frame; at?.parent; at = at.parent) tokens.push(at.key.replaceAll('~', '~0').replaceAll('/', '~1'));
  return tokens
    .reverse()
    .map((token) => `/${token}`)
    .join('');
};

/**
 * The JSON pointer of the first array or object nested deeper than `maxDepth` (the value itself is depth 1), or
 * undefined when the value is not that deep.
 */
export function tooDeepAt(value: unknown, maxDepth = maxJsonDepth): string | undefined {
  const stack: Frame[] = [{ value, depth: 1, parent: undefined, key: '' }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    if (typeof frame.value !== 'object' || frame.value === null) continue;
    if (frame.depth > maxDepth) return pointerOf(frame);
    const entries = Array.isArray(frame.value)
      ? frame.value.map((item, index) => [String(index), item] as const)
      : Object.entries(frame.value);
    for (let index = entries.length - 1; index >= 0; index--) {
      const [key, item] = entries[index]!;
      if (typeof item === 'object' && item !== null) stack.push({ value: item, depth: frame.depth + 1, parent: frame, key });
    }
  }
  return undefined;
}
