// The validating proxy's reports: the last ones kept, every one counted, in a bounded memory.
import { describe, expect, it } from 'vitest';
import { createCall, errorAnswer } from '../../src/http/exchange.js';
import { ExchangeLog } from '../../src/proxy/exchange-log.js';
import { describeTally, summarizeReports } from '../../src/proxy/reports.js';

const call = (index: number) =>
  createCall({ method: 'GET', url: `/made-up/${index}?client_secret=s${index}`, headers: {}, body: Buffer.alloc(0) });
const violation = { location: ['request', 'path'], severity: 'Error' as const, code: 404, message: 'no path matches' };

describe('the exchange log', () => {
  it('keeps the last maxReports exchanges and counts them all, with bounded keys by operation', () => {
    const log = new ExchangeLog([], undefined, 3);
    for (let index = 0; index < 250; index++) log.record(call(index), errorAnswer(404, ''), false, [violation]);
    expect(log.reports.map((report) => report.url)).toEqual([
      '/made-up/247?client_secret=[redacted]',
      '/made-up/248?client_secret=[redacted]',
      '/made-up/249?client_secret=[redacted]',
    ]);
    expect(log.tally.byOperation.size).toBeLessThanOrEqual(101);
    const summary = describeTally(log.tally);
    expect(summary).toMatch(/^250 exchanges checked against the contract; 250 broke it \(250 request violations, 0 response violations\)/);
    expect(summary).toMatch(/\(other requests\): 150$/m);
    expect(summarizeReports(log.reports)).toMatch(/^3 exchanges checked/);
    // One of each is said in the singular.
    expect(summarizeReports(log.reports.slice(0, 1))).toMatch(
      /^1 exchange checked against the contract; 1 broke it \(1 request violation, 0 response violations\)/,
    );
  });
});
