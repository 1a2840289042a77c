import { describe, expect, it } from 'vitest';
import { isLoopbackName } from '../../src/fetch/address.js';
import { bearerFault, hostFault, hostHeaderName, isHostName, originFault, ownOrigins } from '../../src/http/guard.js';

describe('isLoopbackName', () => {
  it('takes only names that no resolver is asked for', () => {
    for (const name of ['localhost', 'LOCALHOST', '127.0.0.1', '127.255.0.9', '::1', '[::1]'])
      expect(isLoopbackName(name), name).toBe(true);
    for (const name of ['app.localhost', '0.0.0.0', '127.0.0.256', '127.0.0', '128.0.0.1', 'example.com', '', '::']) {
      expect(isLoopbackName(name), name).toBe(false);
    }
  });
});

describe('hostFault', () => {
  it('lets loopback names and the listen address through, with or without a port', () => {
    for (const host of ['localhost:4010', '127.0.0.1:4010', '[::1]:4010', 'localhost'])
      expect(hostFault({ host }, '127.0.0.1')).toBeUndefined();
    expect(hostFault({ host: '10.1.2.3:4010' }, '10.1.2.3')).toBeUndefined();
  });
  it('refuses a name a page rebound to this machine, and a missing Host', () => {
    expect(hostFault({ host: 'attacker.example:4010' }, '127.0.0.1')).toMatch(/attacker\.example/);
    expect(hostFault({ host: 'attacker.example' }, '0.0.0.0')).toMatch(/names neither/);
    expect(hostFault({}, '127.0.0.1')).toMatch(/missing/);
    expect(hostHeaderName('[')).toBeUndefined();
    expect(hostHeaderName(':80')).toBeUndefined();
  });
  it('lets the names the operator allowed through, and no other', () => {
    expect(hostFault({ host: 'mcp.example.com:8443' }, '0.0.0.0', ['mcp.example.com'])).toBeUndefined();
    expect(hostFault({ host: 'MCP.example.com' }, '0.0.0.0', ['mcp.example.com'])).toBeUndefined();
    expect(hostFault({ host: '[fd00::1]:80' }, '::', ['[fd00::1]'])).toBeUndefined();
    expect(hostFault({ host: 'mcp.example.com.evil.example' }, '0.0.0.0', ['mcp.example.com'])).toMatch(/nor mcp\.example\.com/);
  });
});

describe('originFault', () => {
  const own = ownOrigins('127.0.0.1', 4010);
  it('lets programs (no Origin) and the server own pages through', () => {
    expect(own).toContain('http://localhost:4010');
    expect(originFault({}, own)).toBeUndefined();
    expect(originFault({ origin: 'http://127.0.0.1:4010' }, own)).toBeUndefined();
  });
  it('refuses any other page', () => {
    expect(originFault({ origin: 'https://evil.example' }, own)).toMatch(/evil\.example.*refused/);
    expect(originFault({ origin: 'null' }, own)).toMatch(/refused/);
    expect(originFault({ origin: 'http://localhost:4011' }, own)).toMatch(/refused/);
  });
});

describe('bearerFault', () => {
  it('takes exactly the token the server was given', () => {
    expect(bearerFault({ authorization: 'Bearer s3cret' }, 's3cret')).toBeUndefined();
    for (const authorization of [undefined, '', 'Bearer s3cre', 'Bearer s3cret ', 'bearer s3cret', 's3cret']) {
      expect(bearerFault({ authorization }, 's3cret'), String(authorization)).toMatch(/Bearer <token>/);
    }
  });
});

describe('isHostName: a name an operator allows for the Host header', () => {
  it('takes a host name or an address, and refuses one with a port, a scheme or a path, which no Host name equals', () => {
    for (const name of ['mcp.example.com', 'MCP.example.com', '10.0.0.7', '::1', '[2001:db8::1]'])
      expect(isHostName(name), name).toBe(true);
    for (const name of ['mcp.example.com:443', 'https://mcp.example.com', 'mcp.example.com/mcp', '', '[]', 'a b'])
      expect(isHostName(name), name).toBe(false);
    // What each accepted name is compared with: the name of a Host header that carries it.
    expect(hostFault({ host: 'MCP.example.com:443' }, '0.0.0.0', ['mcp.example.com'])).toBeUndefined();
    expect(hostFault({ host: '[2001:db8::1]:8443' }, '0.0.0.0', ['[2001:db8::1]'])).toBeUndefined();
  });
});
