// verify's own checks of an answer, one part each (src/verify/checks/): what the schemas cannot say. The whole judge,
// with Prism's validator, runs against live servers in test/integration/verify.test.ts.
import { describe, expect, it } from 'vitest';
import type { RouteOperation } from '../../src/description/routes.js';
import { checkEnvelope } from '../../src/verify/checks/envelope.js';
import { checkErrorShape } from '../../src/verify/checks/error-shape.js';
import { checkStatus, documentsStatus } from '../../src/verify/checks/status.js';
import { checkTimestamps } from '../../src/verify/checks/timestamps.js';
import type { CheckedAnswer } from '../../src/verify/checks/violation.js';

const getMonitor = {
  method: 'get',
  template: '/api/monitors/{monitor_id}',
  operationId: 'getMonitor',
  statuses: ['200', '401', '404', '5XX'],
} as RouteOperation;

const answer = (status: number, body: unknown, onApi = true): CheckedAnswer => ({
  operation: getMonitor,
  status,
  body,
  statusKey: documentsStatus(getMonitor, status),
  onApi,
});

describe("verify's checks of an answer", () => {
  it('status: documented by its code or its class; another is a violation naming the documented ones', () => {
    expect(documentsStatus(getMonitor, 404)).toBe('404');
    expect(documentsStatus(getMonitor, 503)).toBe('5XX');
    expect(checkStatus(answer(200, {}))).toEqual([]);
    expect(checkStatus(answer(418, {}))).toEqual([
      { rule: 'status', message: 'status 418 is not documented for getMonitor (it documents 200, 401, 404, 5XX)' },
    ]);
  });

  it('error shape: an undocumented error status still answers {code, message} (core document, section 7)', () => {
    expect(checkErrorShape(answer(418, { code: 7, message: 'teapot' }))).toEqual([]);
    expect(checkErrorShape(answer(418, 'teapot')).map((violation) => [violation.pointer, violation.rule])).toEqual([['', 'error-shape']]);
    expect(checkErrorShape(answer(418, { code: '7' })).map((violation) => [violation.pointer, violation.message])).toEqual([
      ['/code', 'must be integer (the error code), not string'],
      ['/message', 'required attribute "message" is missing (an error body is {code, message}, core document section 7)'],
    ]);
    // A documented status is the schema's to judge; the identity provider's bodies are not the API's.
    expect(checkErrorShape(answer(404, 'not found'))).toEqual([]);
    expect(checkErrorShape(answer(418, 'teapot', false))).toEqual([]);
  });

  it("envelope: a success answer's code is 0, an error's code is never 0 (sections 2.1 and 7)", () => {
    expect(checkEnvelope(answer(200, { code: 0, message: 'success' }))).toEqual([]);
    expect(checkEnvelope(answer(200, { code: 3 })).map((violation) => violation.message)).toEqual([
      "a success answer's code is 0 (core document, section 2.1), not 3",
    ]);
    expect(checkEnvelope(answer(404, { code: 0 })).map((violation) => violation.pointer)).toEqual(['/code']);
    expect(checkEnvelope(answer(200, { code: 3 }, false))).toEqual([]);
  });

  it("timestamps: every one in the service's form, described or not (section 2.2)", () => {
    const body = { data: { ok: '2026-11-21T10:00:00+0530', rfc: '2026-11-21T10:00:00+05:30', list: ['2026-11-21T10:00:00Z'] } };
    expect(checkTimestamps(answer(200, body)).map((violation) => violation.pointer)).toEqual(['/data/rfc', '/data/list/0']);
  });
});
