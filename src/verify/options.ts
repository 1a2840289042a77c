// verify's options, checked once: what is wrong throws a TypeError naming the option before anything is sent.
import { dataCenterOf } from '../client/auth.js';
import { isParameter, type OpenApiDocument, type Operation, operationsOf, type ParameterNode } from '../description/openapi.js';
import { packagedDescription } from '../engine/packaged.js';
import { credentialAddress, placeholderHost } from '../fetch/address.js';
import type { FetchLike } from '../fetch/exchange.js';
import {
  codeNames,
  isWorded,
  OptionError,
  type OptionNames,
  option,
  positiveNumber,
  positiveWholeNumber,
  type Wording,
  wording,
} from '../options.js';
import { type CheckReport, type VerifyAuth, type VerifyOptions, verifyDefaults } from './types.js';

/** The options of a run, checked and with their defaults. */
export interface Settings {
  baseUrl: string;
  authUrl: string | undefined;
  dataCenter: string | undefined;
  auth: VerifyAuth;
  accounts: boolean;
  allow: string[];
  budget: number;
  ratePerSecond: number;
  timeoutMs: number;
  maxWaitMs: number;
  unknownMonitorId: string;
  description: OpenApiDocument | undefined;
  fetch: FetchLike;
  insecure: boolean;
  onCheck: ((check: CheckReport) => void) | undefined;
  /** How the report's notes name the options. */
  optionNames: OptionNames;
}

function checkUrl(name: 'baseUrl' | 'authUrl', value: string, insecure: boolean): string {
  const address = credentialAddress(name, value, insecure);
  const placeholder = placeholderHost(address);
  if (placeholder) {
    throw new OptionError(
      wording`${placeholder} (the documents do not give the data centers' hosts): give your data center's real ${name === 'baseUrl' ? 'API root' : 'identity provider'} as ${option(name)}.`,
    );
  }
  return address;
}

/** The operations that create or change data, which `allow` may name. */
export function writeOperations(description?: object): string[] {
  return resourceOperations((description as OpenApiDocument | undefined) ?? packagedBundle())
    .filter((entry) => entry.method !== 'get')
    .map((entry) => entry.operationId);
}

export const packagedBundle = (): OpenApiDocument => packagedDescription;

export interface ResourceOperation {
  operationId: string;
  method: string;
  /** Relative to the API root: /monitors/{monitor_id}. */
  template: string;
  /** The operation of the description. */
  node: Operation;
  /** Its parameters (the path item's merged in), those with a name and a place. */
  parameters: ParameterNode[];
}

/** The operations of the API root (not the identity provider's), in the description's order. */
export function resourceOperations(document: OpenApiDocument): ResourceOperation[] {
  return operationsOf(document)
    .filter(({ path }) => !Array.isArray(document.paths?.[path]?.servers)) // not the identity provider's paths
    .map(({ path: template, method, operation: node, parameters }) => ({
      operationId: String(node.operationId ?? `${method} ${template}`),
      method,
      template,
      node,
      parameters: parameters.filter(isParameter),
    }));
}

/** A wrong option of verify: nothing was sent. The command line shows it as a usage error (exit status 2), in its flags. */
export class VerifyOptionsError extends OptionError {
  override readonly name = 'VerifyOptionsError';
  constructor(message: string | Wording) {
    super(typeof message === 'string' ? [message] : message);
  }
}

/** Checks the options and resolves the defaults; throws a VerifyOptionsError naming a wrong option (nothing is sent). */
export function resolveVerifyOptions(options: VerifyOptions): Settings {
  try {
    return settingsOf(options);
  } catch (error) {
    if (!(error instanceof TypeError) || error instanceof VerifyOptionsError) throw error;
    throw new VerifyOptionsError(isWorded(error) ? error.wording : error.message);
  }
}

function settingsOf(options: VerifyOptions): Settings {
  if (!options || typeof options !== 'object')
    throw new OptionError(['verifyService needs options: { baseUrl, authUrl, auth } or { dataCenter, baseUrl, authUrl, auth }']);
  const center = options.dataCenter === undefined ? undefined : dataCenterOf(options.dataCenter);
  const rawBase = options.baseUrl ?? center?.baseUrl;
  if (!rawBase)
    throw new OptionError(wording`Give the API root to verify as ${option('baseUrl')}, e.g. http://127.0.0.1:4010/api for the mock.`);
  const insecure = options.insecure === true;
  const baseUrl = checkUrl('baseUrl', rawBase, insecure);
  const auth = options.auth as Partial<Record<string, unknown>> | undefined;
  if (!auth || typeof auth !== 'object')
    throw new OptionError(wording`${option('auth')} is required: { clientId, clientSecret, refreshToken } or { accessToken }`);
  const refreshing = auth.refreshToken !== undefined || auth.clientId !== undefined || auth.clientSecret !== undefined;
  let authUrl: string | undefined;
  if (refreshing) {
    for (const name of ['clientId', 'clientSecret', 'refreshToken']) {
      if (typeof auth[name] !== 'string' || auth[name] === '')
        throw new OptionError(wording`${option(`auth.${name}`)} is required with a refresh token (a non-empty string)`);
    }
    const rawAuth = options.authUrl ?? center?.authUrl;
    if (!rawAuth)
      throw new OptionError(
        wording`A refresh token needs the identity provider as ${option('authUrl')}, e.g. http://127.0.0.1:4010 for the mock.`,
      );
    authUrl = checkUrl('authUrl', rawAuth, insecure);
  } else {
    if (typeof auth.accessToken !== 'string' || auth.accessToken === '')
      throw new OptionError(wording`${option('auth')} needs { clientId, clientSecret, refreshToken } or { accessToken }`);
    authUrl = options.authUrl === undefined ? undefined : checkUrl('authUrl', options.authUrl, insecure);
  }
  const document = (options.description as OpenApiDocument | undefined) ?? packagedBundle();
  const writes = writeOperations(document);
  const allow = [...new Set(options.allow ?? [])];
  for (const name of allow) {
    if (!writes.includes(name)) {
      const isGet = resourceOperations(document).some((entry) => entry.operationId === name);
      throw new OptionError(
        isGet
          ? wording`${name} reads data: verify sends every documented GET without being asked (${option('allow')} names the operations that create or change data).`
          : wording`${JSON.stringify(name)} is not an operation of the API that creates or changes data, which ${option('allow')} names; those are: ${writes.join(', ') || 'none'}.`,
      );
    }
  }
  const unknownMonitorId = options.unknownMonitorId ?? verifyDefaults.unknownMonitorId;
  if (!/^[0-9]+$/.test(unknownMonitorId))
    throw new OptionError(
      wording`${option('unknownMonitorId')} must be a string of digits (a monitor_id), not ${JSON.stringify(unknownMonitorId)}`,
    );
  return {
    baseUrl,
    authUrl,
    dataCenter: options.dataCenter,
    auth: options.auth,
    accounts: options.accounts === true,
    allow,
    budget: positiveWholeNumber('budget', options.budget, verifyDefaults.budget),
    ratePerSecond: positiveNumber('ratePerSecond', options.ratePerSecond, verifyDefaults.ratePerSecond),
    timeoutMs: positiveWholeNumber('timeoutMs', options.timeoutMs, verifyDefaults.timeoutMs),
    maxWaitMs: options.maxWaitMs === 0 ? 0 : positiveWholeNumber('maxWaitMs', options.maxWaitMs, verifyDefaults.maxWaitMs),
    unknownMonitorId,
    description: options.description as OpenApiDocument | undefined,
    fetch: options.fetch ?? ((request: Request) => globalThis.fetch(request)),
    insecure,
    onCheck: options.onCheck,
    optionNames: options.optionNames ?? codeNames,
  };
}
