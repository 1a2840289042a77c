// The engine's example answers, made once per operation and preference. For a request without faults, the
// engine's mocker picks the answer (negotiation: the status, the media type, the example) from the operation and
// the preferences alone (the status, the example's name, the media types asked for), and makes it from the
// description's examples: the same answer every time. The mock keeps the first one and hands it out again to any
// request of that operation and preferences; the engine still validates each distinct request (verdicts.ts keeps
// its verdict on the same request), and a request with faults, a dynamic answer or an operation with callbacks gets
// an answer made by the mocker.

/** The engine's mocker, as its `mock` component: given a request, a reader of a logger giving an fp-ts Either. */
export type Mocker = (options: MockerOptions) => (logger: unknown) => EitherOf<unknown>;

interface MockerOptions {
  resource: { callbacks?: unknown[] | undefined };
  input: { data: { headers?: Record<string, string> }; validations: { severity: number }[] };
  config: { code?: unknown; exampleKey?: unknown; dynamic?: boolean; mediaTypes?: unknown; ignoreExamples?: unknown };
}

type EitherOf<T> = { _tag: 'Left'; left: unknown } | { _tag: 'Right'; right: T };

/** Freezes an answer and everything in it: an answer handed out twice must not be changed by its first reader. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

/** Whether the mocker's answer depends on nothing but the operation and the preferences. */
function answersAlike({ resource, input, config }: MockerOptions): boolean {
  const headers = input.data.headers ?? {};
  return (
    config.dynamic !== true &&
    !(resource.callbacks && resource.callbacks.length > 0) &&
    // The mocker reads Accept into the media types; the mock sends none (it checks Accept itself).
    !Object.keys(headers).some((name) => name.toLowerCase() === 'accept') &&
    !input.validations.some((validation) => validation.severity === 0)
  );
}

/**
 * The most answers kept per operation. The mock lets through only the statuses and examples an operation documents,
 * so there are few; the bound keeps any other caller of the engine from growing the memory.
 */
const maxKeptPerOperation = 64;

/** The engine's mocker, with the answers that depend only on the operation and the preferences kept. */
export function keptAnswers(mocker: Mocker): Mocker {
  const kept = new WeakMap<object, Map<string, EitherOf<unknown>>>();
  return (options) => {
    if (!answersAlike(options)) return mocker(options);
    const { code, exampleKey, mediaTypes, ignoreExamples } = options.config;
    const key = JSON.stringify([code ?? null, exampleKey ?? null, mediaTypes ?? null, ignoreExamples ?? null]);
    let answers = kept.get(options.resource);
    if (!answers) kept.set(options.resource, (answers = new Map()));
    const answer = answers.get(key);
    if (answer) return () => answer;
    return (logger) => {
      const made = mocker(options)(logger);
      // Only answers are kept (a refusal, e.g. a status the operation does not document, is made again).
      if (made._tag === 'Right' && answers.size < maxKeptPerOperation) answers.set(key, deepFreeze(made));
      return made;
    };
  };
}
