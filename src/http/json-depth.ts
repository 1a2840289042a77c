// How deep a JSON value nests. Parsing is iterative in V8 and takes any depth, but what walks a parsed value by
// recursion (a schema validator, structuredClone, a seed's checks) overflows the stack somewhere past a few thousand
// levels: the mock, the proxy and the seed reader refuse a value nested deeper than `maxJsonDepth` first, and say
// where. One pass over the value, with an explicit stack: linear in its size, whatever its depth.

/** The deepest nesting of arrays and objects the mock, the proxy and a seed take (the mock's own bound). */
export const maxJsonDepth = 256;

interface Frame {
  value: object;
  depth: number;
  parent: Frame | undefined;
  key: string | number;
}

const pointerOf = (frame: Frame): string => {
  const tokens: string[] = [];
  for (let at: Frame | undefined = frame; at?.parent; at = at.parent)
    tokens.push(String(at.key).replaceAll('~', '~0').replaceAll('/', '~1'));
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
  if (typeof value !== 'object' || value === null) return undefined;
  const stack: Frame[] = [{ value, depth: 1, parent: undefined, key: '' }];
  // Only arrays and objects become frames: a list of a million numbers is read without one allocation each.
  const push = (frame: Frame, key: string | number, item: unknown) => {
    if (typeof item === 'object' && item !== null) stack.push({ value: item, depth: frame.depth + 1, parent: frame, key });
  };
  while (stack.length > 0) {
    const frame = stack.pop()!;
    if (frame.depth > maxDepth) return pointerOf(frame);
    // Pushed last first, so that the first too deep in the order of the text is found first.
    if (Array.isArray(frame.value)) for (let index = frame.value.length - 1; index >= 0; index--) push(frame, index, frame.value[index]);
    else {
      const keys = Object.keys(frame.value);
      for (let index = keys.length - 1; index >= 0; index--)
        push(frame, keys[index]!, (frame.value as Record<string, unknown>)[keys[index]!]);
    }
  }
  return undefined;
}
