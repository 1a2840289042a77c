// A count as a reader says it: `1 monitor`, `2 monitors`, `0 monitors`. Every count printed with its noun goes through it.

/** `count` and its noun, singular for 1; `many` when the plural is not the noun and an s. */
export const counted = (count: number, one: string, many = `${one}s`): string => `${count} ${count === 1 ? one : many}`;
