// What a revision of the package changes for its users, judged export by export and member by member by the
// direction values flow (as the TypeScript compiler judges assignability): users may pass in more than before and
// must be given no more than before. An export removed breaks; an export added passes. In what users pass in
// (options, parameters), a member added as required, a member made required, a type narrowed break; in what the
// package gives them (results, errors, constants), a member removed, a member made optional, a type widened break.
// Exports made from the description (`fromDescription`) are judged by the description's rules (contract-rules.ts):
// here only their removal, and the removal of their members and values, count. The table of rules is in
// CONTRIBUTING.md ("How the gate judges a change").
import type { ApiExport, ApiMember, ApiReport, ApiSignature } from './api-report.js';
import type { Change } from './breaking-changes.js';

type Flow = 'input' | 'output' | 'both';

const change = (impact: 'major' | 'minor', ruleId: string, direction: Flow, pointer: string, message: string): Change => ({
  ruleId,
  impact,
  direction,
  message,
  pointer,
});

/** The members of a union as printed (`'a' | 'b' | undefined`), split at the top level only. */
export function unionParts(text: string): Set<string> {
  const parts: string[] = [];
  let depth = 0;
  let quote = '';
  let start = 0;
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (quote) {
      if (char === '\\') index++;
      else if (char === quote) quote = '';
    } else if (char === '"' || char === "'" || char === '`') quote = char;
    else if ('([{<'.includes(char)) depth++;
    else if (')]}>'.includes(char) && text[index - 1] !== '=') depth--;
    else if (char === '|' && depth === 0) {
      parts.push(text.slice(start, index).trim());
      start = index + 1;
    }
  }
  parts.push(text.slice(start).trim());
  return new Set(parts.filter((part) => part !== ''));
}

/** The index of the `)` that closes the `(` at `open`, past quoted text; the text's length when none does. */
function closingParenthesis(text: string, open: number): number {
  let depth = 0;
  let quote = '';
  for (let index = open; index < text.length; index++) {
    const char = text[index]!;
    if (quote) {
      if (char === '\\') index++;
      else if (char === quote) quote = '';
    } else if (char === '"' || char === "'" || char === '`') quote = char;
    else if (char === '(') depth++;
    else if (char === ')' && --depth === 0) return index;
  }
  return text.length;
}

/**
 * A printed type with the members of every union in one order, inside parentheses too (`("b" | "a")[]` is
 * `("a" | "b")[]`): the compiler prints a union's members in the order it met them, which one build may change.
 * A function's parameter list is not a union and is sorted all the same: two types equal but for the order of their
 * parameters' unions may read as changed (refused: the safe side).
 */
export function canonicalType(text: string): string {
  let flat = '';
  let quote = '';
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (quote || char !== '(') {
      if (quote && char === '\\') flat += text[index++] ?? '';
      else if (quote && char === quote) quote = '';
      else if (!quote && (char === '"' || char === "'" || char === '`')) quote = char;
      flat += text[index] ?? '';
      continue;
    }
    const close = closingParenthesis(text, index);
    flat += `(${canonicalType(text.slice(index + 1, close))})`;
    index = close;
  }
  return [...unionParts(flat)].sort().join(' | ');
}

/** How a type changed: `same`, `widened` (a value more), `narrowed` (a value less), or `changed` (both). */
export function typeShift(before: string, after: string): 'same' | 'widened' | 'narrowed' | 'changed' {
  if (before === after || canonicalType(before) === canonicalType(after)) return 'same';
  const was = unionParts(before);
  const now = unionParts(after);
  const lost = [...was].some((part) => !now.has(part));
  const gained = [...now].some((part) => !was.has(part));
  // The compiler prints a union's members in the order it met them: the same members in another order are the same type.
  if (!lost && !gained) return 'same';
  return lost && gained ? 'changed' : lost ? 'narrowed' : 'widened';
}

/**
 * The verdict on a type that changed where values flow one way: what users pass in may widen, what they are given
 * may narrow; anything else breaks.
 */
const shiftImpact = (shift: ReturnType<typeof typeShift>, flow: Flow): 'major' | 'minor' =>
  (shift === 'widened' && flow === 'input') || (shift === 'narrowed' && flow === 'output') ? 'minor' : 'major';

function memberChanges(
  pointer: string,
  name: string,
  before: Record<string, ApiMember>,
  after: Record<string, ApiMember>,
  flow: Flow,
  own: boolean,
): Change[] {
  const changes: Change[] = [];
  for (const [member, was] of Object.entries(before)) {
    const is = after[member];
    const at = `${pointer}.${member}`;
    if (!is) {
      changes.push(change('major', 'member-removed', flow, at, `${name}.${member} was removed (or renamed).`));
      continue;
    }
    if (!own) continue;
    if (was.optional && !is.optional)
      changes.push(change(flow === 'output' ? 'minor' : 'major', 'member-made-required', flow, at, `${name}.${member} became required.`));
    if (!was.optional && is.optional)
      changes.push(
        change(
          flow === 'input' ? 'minor' : 'major',
          'member-made-optional',
          flow,
          at,
          `${name}.${member} became optional: it may be missing.`,
        ),
      );
    const shift = typeShift(was.type.replace(/ \| undefined$/, ''), is.type.replace(/ \| undefined$/, ''));
    if (shift !== 'same')
      changes.push(
        change(
          shiftImpact(shift, flow),
          `member-type-${shift}`,
          flow,
          at,
          `The type of ${name}.${member} ${shift}: from ${was.type} to ${is.type}.`,
        ),
      );
  }
  if (!own) return changes;
  for (const [member, is] of Object.entries(after)) {
    if (Object.hasOwn(before, member)) continue;
    if (is.optional) changes.push(change('minor', 'optional-member-added', flow, `${pointer}.${member}`, `${name}.${member} was added.`));
    else
      changes.push(
        change(
          flow === 'output' ? 'minor' : 'major',
          'required-member-added',
          flow,
          `${pointer}.${member}`,
          `${name}.${member} was added as required.`,
        ),
      );
  }
  return changes;
}

/** Signatures, one by one: a parameter is an input (it may widen, gain optional company), the return an output. */
function signatureChanges(pointer: string, name: string, before: ApiSignature[], after: ApiSignature[]): Change[] {
  const changes: Change[] = [];
  before.forEach((was, index) => {
    const is = after[index];
    const at = after.length > 1 ? `${pointer}(${index})` : pointer;
    if (!is) {
      changes.push(change('major', 'signature-removed', 'input', at, `A signature of ${name} was removed.`));
      return;
    }
    is.parameters.forEach((parameter, position) => {
      const old = was.parameters[position];
      const label = `${name}(${parameter.name})`;
      if (!old) {
        const rule = parameter.optional ? 'optional-parameter-added' : 'required-parameter-added';
        changes.push(change(parameter.optional ? 'minor' : 'major', rule, 'input', `${at}(${parameter.name})`, `${label} was added.`));
        return;
      }
      if (old.optional && !parameter.optional)
        changes.push(change('major', 'parameter-made-required', 'input', `${at}(${parameter.name})`, `${label} became required.`));
      const shift = typeShift(old.type, parameter.type);
      if (shift !== 'same')
        changes.push(
          change(
            shiftImpact(shift, 'input'),
            `parameter-type-${shift}`,
            'input',
            `${at}(${parameter.name})`,
            `The type of ${label} ${shift}: from ${old.type} to ${parameter.type}.`,
          ),
        );
    });
    if (was.parameters.length > is.parameters.length)
      changes.push(
        change(
          'major',
          'parameter-removed',
          'input',
          at,
          `${name} takes fewer parameters: ${was.parameters.length} before, ${is.parameters.length} now.`,
        ),
      );
    const shift = typeShift(was.returns, is.returns);
    if (shift !== 'same')
      changes.push(
        change(
          shiftImpact(shift, 'output'),
          `return-type-${shift}`,
          'output',
          at,
          `What ${name} returns ${shift}: from ${was.returns} to ${is.returns}.`,
        ),
      );
  });
  return changes;
}

/** description-type-changed: an export made from the description changed with it; the description's rules judge that. */
const fromTheDescription = (pointer: string, name: string, flow: Flow) =>
  change('minor', 'description-type-changed', flow, pointer, `${name} changed with the description, whose rules judge the change.`);

/** Every change of one export that is still there. */
function exportChanges(pointer: string, name: string, before: ApiExport, after: ApiExport): Change[] {
  const flow: Flow = after.direction ?? (after.kind === 'function' ? 'input' : 'output');
  if (before.kind !== after.kind)
    return [change('major', 'export-changed', flow, pointer, `${name} was a ${before.kind} and is now a ${after.kind}.`)];
  const own = !after.fromDescription;
  if (before.values && after.values) {
    const removed = before.values.filter((value) => !after.values!.includes(value));
    const added = after.values.filter((value) => !before.values!.includes(value));
    // A value added to what the package gives breaks exhaustive switches; the description's sets are its rules' to judge.
    const addedImpact = own && flow !== 'input' ? 'major' : 'minor';
    return [
      ...(removed.length > 0 ? [change('major', 'value-removed', flow, pointer, `${name} no longer has ${removed.join(', ')}.`)] : []),
      ...(added.length > 0 ? [change(addedImpact, 'value-added', flow, pointer, `${name} gained ${added.join(', ')}.`)] : []),
    ];
  }
  if (before.members && after.members) {
    const memberFlow = after.kind === 'const' ? 'output' : flow;
    const signatures =
      own && before.signatures && after.signatures ? signatureChanges(pointer, name, before.signatures, after.signatures) : [];
    const members = memberChanges(pointer, name, before.members, after.members, memberFlow, own);
    const same =
      Object.keys(before.members).length === Object.keys(after.members).length &&
      Object.entries(after.members).every(([member, is]) => {
        const was = before.members![member];
        return was !== undefined && was.optional === is.optional && typeShift(was.type, is.type) === 'same';
      });
    return [...signatures, ...members, ...(own || same ? [] : [fromTheDescription(pointer, name, flow)])];
  }
  if (!own) return before.type === after.type ? [] : [fromTheDescription(pointer, name, flow)];
  if (before.signatures && after.signatures) return signatureChanges(pointer, name, before.signatures, after.signatures);
  // A type with no members, values or signatures to compare (or a function of a release that kept no signatures):
  // its printed text is the whole comparison, and any change of it is refused.
  if (typeShift(before.type, after.type) === 'same') return [];
  return [change('major', 'export-type-changed', flow, pointer, `The type of ${name} changed from ${before.type} to ${after.type}.`)];
}

/** What a revision of the package breaks for its users, and what it adds: every change, each with its impact. */
export function apiChanges(base: ApiReport, revision: ApiReport): Change[] {
  const changes: Change[] = [];
  for (const [entry, exports] of Object.entries(base)) {
    const now = revision[entry] ?? {};
    for (const [name, before] of Object.entries(exports)) {
      const pointer = `${entry}#${name}`;
      const after = now[name];
      if (!after) changes.push(change('major', 'export-removed', 'both', pointer, `The export ${name} of ${entry} was removed.`));
      else changes.push(...exportChanges(pointer, name, before, after));
    }
    for (const name of Object.keys(now))
      if (!Object.hasOwn(exports, name))
        changes.push(change('minor', 'export-added', now[name]!.direction ?? 'both', `${entry}#${name}`, `${name} was added to ${entry}.`));
  }
  return changes;
}
