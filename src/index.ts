// monitoring-service-api: the typed client of the Monitoring Service REST API.

// The data centers, the API version and the identity provider's limits, as generated from the description.
export { apiVersion, type DataCenterId, dataCenters, tokenLimits } from '../generated/client.js';
// The types of the description: paths, operations, components and the Schema*/Response*/Parameter* aliases.
export type * from '../generated/types.js';
export {
  type AccessTokenResult,
  exchangeGrantCode,
  type GrantTokens,
  type IdentityProviderOptions,
  type RenewedToken,
  refreshAccessToken,
  revokeRefreshToken,
} from './client/auth.js';
export {
  type CallInit,
  type CallOptions,
  createServiceClient,
  type EnvelopeData,
  type OperationOf,
  type PathsWithMethod,
  type PlainJsonPaths,
  type ResourceMethod,
  type ResourcePaths,
  type ResponseBody,
  type ResultData,
  type ServiceAuth,
  type ServiceClient,
  type ServiceClientOptions,
  type ServiceMethod,
  type ServiceRequestMethod,
  type ServiceResult,
} from './client/client.js';
export type { AnswerIssue, AnswerSchema, AnswerSchemas } from './client/contract.js';
export { type OperationInfo, ServiceError, type ServiceErrorKind } from './client/errors.js';
export { operationIds } from './client/operations.js';
export { formatTimestamp, parseTimestamp } from './client/timestamps.js';
export type { FetchLike } from './fetch/exchange.js';
export { backoffDelay, parseRetryAfter, type RetryOptions, type Sleep } from './fetch/retry.js';

import type { components } from '../generated/types.js';
/** A monitor. Unknown attributes of the service arrive untouched next to `monitor_id`. */
export type Monitor = components['schemas']['Monitor'];
/** A customer account (MSP) or business-unit account (BU portal): `name` and `zaaid`. */
export type ManagedAccount = components['schemas']['ManagedAccount'];
export type MonitorGroupCreate = components['schemas']['MonitorGroupCreate'];
export type MonitorTypeEntry = components['schemas']['MonitorTypeEntry'];
export type DeviceKey = components['schemas']['DeviceKey'];
/** The `{code, message}` body of a failed call. */
export type ErrorBody = components['schemas']['Error'];
