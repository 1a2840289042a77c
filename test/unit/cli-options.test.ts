// The command line's option readers, in this process: numbers within their rules, credentials from the
// environment, a library's option names written as flags. Every fault is a UsageError (exit status 2).
import { describe, expect, it } from 'vitest';
import { countRule, numberOption, parseOptions, portRule, rateRule, UsageError } from '../../src/cli/args.js';
import { credentialsFrom } from '../../src/cli/credentials.js';

describe('numberOption', () => {
  it.each([
    ['4010', portRule, 4010],
    ['0', portRule, 0],
    ['65535', portRule, 65535],
    ['1', countRule, 1],
    ['0.5', rateRule, 0.5],
    ['.5', rateRule, 0.5],
    ['2', rateRule, 2],
  ] as const)('reads %j', (text, rule, expected) => {
    expect(numberOption('n', text, 'Usage: x', rule)).toBe(expected);
  });

  it.each([
    ['65536', portRule, /--n must be a number from 0 to 65535, not "65536"/],
    ['-1', portRule, /from 0 to 65535/],
    ['0', countRule, /--n must be a whole number > 0, not "0"/],
    ['1.5', countRule, /whole number > 0/],
    ['1e3', countRule, /whole number > 0/],
    [' 1', countRule, /whole number > 0/],
    ['0', rateRule, /--n must be a number > 0, not "0"/],
    ['1.', rateRule, /number > 0/],
    ['1.2.3', rateRule, /number > 0/],
    ['', rateRule, /number > 0/],
  ] as const)('refuses %j with a usage error naming the rule', (text, rule, message) => {
    expect(() => numberOption('n', text, 'Usage: x', rule)).toThrow(UsageError);
    expect(() => numberOption('n', text, 'Usage: x', rule)).toThrow(message);
  });

  it('gives undefined for an option not given', () => {
    expect(numberOption('n', undefined, 'Usage: x', countRule)).toBeUndefined();
  });
});

describe('parseOptions', () => {
  const options = { port: { type: 'string' }, log: { type: 'boolean', default: false } } as const;

  it('reads the options, and --help whatever else is there', () => {
    expect(parseOptions('Usage: x', options, ['--port', '1', '--log'])).toMatchObject({ port: '1', log: true });
    expect(parseOptions('Usage: x', options, ['--frobnicate', '--help'])).toEqual({ help: true });
  });

  it('names an unknown option and an argument no command takes, with the usage', () => {
    expect(() => parseOptions('Usage: x', options, ['--prot', '1'])).toThrow(/Unknown option '--prot'[\s\S]*Usage: x/);
    expect(() => parseOptions('Usage: x', options, ['extra'])).toThrow(/Unexpected argument "extra"/);
  });
});

describe('credentialsFrom (verify reads credentials from the environment only)', () => {
  it('a refresh token with its client, or an access token', () => {
    expect(credentialsFrom({ REFRESH_TOKEN: 'r', CLIENT_ID: 'i', CLIENT_SECRET: 's' }, 'verify', 'Usage')).toEqual({
      refreshToken: 'r',
      clientId: 'i',
      clientSecret: 's',
    });
    expect(credentialsFrom({ ACCESS_TOKEN: 'a' }, 'verify', 'Usage')).toEqual({ accessToken: 'a' });
  });

  it('names what is missing, never a value', () => {
    expect(() => credentialsFrom({ REFRESH_TOKEN: 'secret-value' }, 'verify', 'Usage')).toThrow(/CLIENT_ID and CLIENT_SECRET/);
    expect(() => credentialsFrom({ REFRESH_TOKEN: 'secret-value' }, 'verify', 'Usage')).not.toThrow(/secret-value/);
    expect(() => credentialsFrom({}, 'verify', 'Usage')).toThrow(UsageError);
  });
});
