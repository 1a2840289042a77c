// The operation a call came closest to when none matched it, for the journal's `near_miss`: what a tester needs
// to see why the mock answered 404 or 405 (`GET /api/monitor` was meant as `GET /api/monitors`; `/monitors` lacks
// the API root; `DELETE /api/monitors` is not an operation). Each path is compared without its server part (the
// API root `/api`; the identity provider's paths have no root of their own), segment by segment: a template segment (`{monitor_id}`)
// takes any non-empty segment, a literal one costs its share of characters that differ.
import { apiRoot } from '../description/mock-document.js';
import type { Route } from '../description/routes.js';
import type { NearMiss } from './types.js';

/** The longest segment compared character by character: longer ones cost a whole segment (the work stays bounded). */
const comparedLength = 32;
/** The most segments compared: a longer path is no near miss of any operation. */
const comparedSegments = 8;

const rootSegment = apiRoot.slice(1);

/** The share of characters to change to turn one text into the other (Levenshtein distance over the longer length). */
function textDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length > comparedLength || b.length > comparedLength) return 1;
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++)
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]! / Math.max(a.length, b.length);
}

/** The cost of turning sent segments into a template's: a missing or extra segment costs 1, a changed one its share. */
function pathDistance(sent: string[], template: { literal: string | null }[]): number {
  let previous = Array.from({ length: template.length + 1 }, (_, index) => index);
  for (let i = 1; i <= sent.length; i++) {
    const current = [i];
    for (let j = 1; j <= template.length; j++) {
      const literal = template[j - 1]!.literal;
      const segment = sent[i - 1]!;
      const change = literal === null ? (segment.length > 0 ? 0 : 1) : textDistance(segment, literal);
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + change);
    }
    previous = current;
  }
  return previous[template.length]!;
}

/** A route as the search reads it: its segments without the server part, its literal ones, made once per journal. */
export interface NearMissRoute {
  route: Route;
  /** Whether the route is under the API root. */
  api: boolean;
  rest: { literal: string | null }[];
  literals: string[];
}

/** The routes of a description as the search reads them. */
export function nearMissRoutes(routes: readonly Route[]): NearMissRoute[] {
  return routes.map((route) => {
    const api = route.segments[0]?.literal === rootSegment;
    const rest = api ? route.segments.slice(1) : [...route.segments];
    const literals = rest.flatMap((segment) => (segment.literal === null ? [] : [segment.literal]));
    return { route, api, rest, literals };
  });
}

/**
 * The closest operation to a call that matched none, or null when none is close: at most half of the operation's
 * literal segments may differ (or one segment, when another is sent exactly), and the method and the server too.
 */
export function nearMiss(routes: readonly NearMissRoute[], method: string, segments: readonly string[]): NearMiss | null {
  if (segments.length > comparedSegments) return null;
  const api = segments[0] === rootSegment;
  const sent = api ? segments.slice(1) : [...segments];
  const upper = method.toUpperCase();
  let best: { cost: number; miss: NearMiss } | undefined;
  for (const template of routes) {
    const distance = pathDistance(sent, template.rest);
    const anchored = template.literals.some((literal) => sent.includes(literal));
    if (distance > Math.max(template.literals.length, 1) / 2 && !(anchored && distance <= 1)) continue;
    for (const operation of template.route.operations.values()) {
      const differs: NearMiss['differs'] = [];
      if (operation.method.toUpperCase() !== upper) differs.push('method');
      if (distance > 0) differs.push('path');
      if (template.api !== api) differs.push('server');
      // A differing path weighs most, then the server, then the method (the path was right, the verb wrong).
      const cost = distance * 4 + (template.api !== api ? 2 : 0) + (differs.includes('method') ? 1 : 0);
      if (!best || cost < best.cost)
        best = {
          cost,
          miss: { operation: operation.operationId, method: operation.method.toUpperCase(), path: template.route.template, differs },
        };
    }
  }
  return best && best.miss.differs.length > 0 ? best.miss : null;
}
