// Lint: the description passes Redocly with the rules of redocly.yaml, and each rule of ours (scripts/redocly/,
// and the assertions of redocly.yaml) fails lint on a seeded violation, naming the file and the line.
import { describe, expect, it } from 'vitest';
import { run } from '../../scripts/lib/run.js';
import { lintEdited } from '../support/lint.js';

describe('lint', () => {
  it('passes on the description with the rules of redocly.yaml', async () => {
    const result = await run('redocly', ['lint', 'openapi/openapi.yaml'], { allowFailure: true });
    expect(result.stdout + result.stderr).toContain('Your API description is valid');
    expect(result.code).toBe(0);
  });

  describe('on a description with one file broken (in memory, through the library)', () => {
    /** `file:` followed (in the stylish format) by `line:column  error  rule`. */
    const at = (file: string, rule: string, line?: number) =>
      new RegExp(
        `${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\s*\\n(?:\\s*\\d+:\\d+.*\\n)*?\\s*${line ?? '\\d+'}:\\d+\\s+error\\s+${rule.replace('/', '\\/')}\\b`,
      );

    async function expectFault(file: string, edit: (text: string) => string, rule: string, line?: number, message?: RegExp) {
      const { code, output } = await lintEdited(file, edit);
      expect(code, output).not.toBe(0);
      expect(output).toMatch(at(file.replace(/^openapi\//, ''), rule, line));
      if (message) expect(output).toMatch(message);
    }

    it('service/enum-values-named: an enum value without a name', async () => {
      await expectFault(
        'openapi/components/schemas/GrantType.yaml',
        (text) => text.replace('x-enum-varnames: [AuthorizationCode, RefreshToken]', 'x-enum-varnames: [AuthorizationCode]'),
        'service/enum-values-named',
        5,
      );
    });

    it('service/operation-scope-declared: the OAuth 2.0 scheme required beside the header scheme (both would be required)', async () => {
      await expectFault(
        'openapi/paths/device_key.yaml',
        (text) =>
          text.replace(
            '    - ServiceOAuthToken: [Service.Admin.Read]\n',
            '    - ServiceOAuthToken: []\n      ServiceOAuth2: [Service.Admin.Read]\n',
          ),
        'service/operation-scope-declared',
        8,
        /requires ServiceOAuthToken alone/,
      );
    });

    it('service/operation-scope-declared: a scope that is not one of the flow', async () => {
      await expectFault(
        'openapi/paths/device_key.yaml',
        (text) => text.replace('ServiceOAuthToken: [Service.Admin.Read]', 'ServiceOAuthToken: [Service.Admin.Reed]'),
        'service/operation-scope-declared',
        8,
        /Service\.Admin\.Reed is not one of the scopes of the ServiceOAuth2 flow/,
      );
    });

    it('service/operation-scope-declared: no scope, or two', async () => {
      await expectFault(
        'openapi/paths/monitors.yaml',
        (text) => text.replace('ServiceOAuthToken: [Service.Admin.Read]', 'ServiceOAuthToken: []'),
        'service/operation-scope-declared',
        8,
        /exactly one scope/,
      );
      await expectFault(
        'openapi/paths/monitors.yaml',
        (text) => text.replace('ServiceOAuthToken: [Service.Admin.Read]', 'ServiceOAuthToken: [Service.Admin.Read, Service.Admin.All]'),
        'service/operation-scope-declared',
        8,
        /exactly one scope/,
      );
    });

    it('service/operation-scope-declared: a hand-written scope line (the decorator writes it, inferred or not)', async () => {
      await expectFault(
        'openapi/paths/monitors.yaml',
        (text) =>
          text.replace('are not shown in the documents.\n', 'are not shown in the documents.\n\n    **Scope:** `Service.Admin.Read`.\n'),
        'service/operation-scope-declared',
        5,
        /service\/scope-line writes it/,
      );
    });

    it('service/secured-operation-errors: a secured operation without 403', async () => {
      await expectFault(
        'openapi/paths/device_key.yaml',
        (text) => text.replace("    '403':\n      $ref: ../components/responses/Forbidden.yaml\n", ''),
        'service/secured-operation-errors',
        20,
        /403 is missing/,
      );
    });

    it('service/response-schemas-open: a response schema that forbids unknown attributes', async () => {
      await expectFault(
        'openapi/components/schemas/Monitor.yaml',
        (text) => text.replace(/^additionalProperties: true.*$/m, 'additionalProperties: false'),
        'service/response-schemas-open',
        7,
        /additionalProperties: false/,
      );
      await expectFault(
        'openapi/components/schemas/DeviceKey.yaml',
        (text) => text.replace(/^additionalProperties: true.*$/m, 'unevaluatedProperties: false'),
        'service/response-schemas-open',
        3,
        /unevaluatedProperties: false/,
      );
    });

    it('service/response-schemas-open: an object of a response, nested in an allOf, that does not declare additionalProperties: true', async () => {
      await expectFault(
        'openapi/components/schemas/MonitorListResponse.yaml',
        (text) => text.replace('    additionalProperties: true\n', ''),
        'service/response-schemas-open',
        5,
        /declares additionalProperties: true/,
      );
    });

    it('service/known-extensions: an x- key that EXTENSIONS.md does not list', async () => {
      await expectFault(
        'openapi/paths/device_key.yaml',
        (text) => text.replace('  x-codeSamples:\n', '  x-scope: Service.Admin.Read\n  x-codeSamples:\n'),
        'service/known-extensions',
        9,
        /x-scope is not in the registry of extension keys/,
      );
    });

    it('service/operation-id-verb: an operationId whose verb does not fit its method', async () => {
      await expectFault(
        'openapi/paths/device_key.yaml',
        (text) => text.replace('operationId: getDeviceKey', 'operationId: fetchDeviceKey'),
        'service/operation-id-verb',
        2,
        /GET starts with one of the verbs get, list/,
      );
      await expectFault(
        'openapi/paths/monitor_groups.yaml',
        (text) => text.replace('operationId: createMonitorGroup', 'operationId: getMonitorGroup'),
        'service/operation-id-verb',
        2,
        /POST starts with one of the verbs create/,
      );
    });

    it('service/code-samples: a sample line too long for a phone', async () => {
      const { code, output } = await lintEdited('openapi/code_samples/curl/device_key/get.sh', (text) =>
        text.replace('"$API_ROOT/device_key"', '"$API_ROOT/device_key?and=a-query-string-that-is-far-too-long"'),
      );
      expect(code).not.toBe(0);
      expect(output).toMatch(at('paths/device_key.yaml', 'service/code-samples', 13));
      expect(output).toMatch(/openapi\/code_samples\/curl\/device_key\/get\.sh:1 is \d+ characters long/);
    });

    it('service/code-samples: a curl sample with a host instead of $API_ROOT', async () => {
      const { code, output } = await lintEdited('openapi/code_samples/curl/device_key/get.sh', (text) =>
        text.replace('"$API_ROOT/device_key"', 'https://api.us.example.invalid/api/device_key'),
      );
      expect(code).not.toBe(0);
      expect(output).toMatch(at('paths/device_key.yaml', 'service/code-samples', 13));
      expect(output).toMatch(/takes its address from \$API_ROOT/);
    });

    it('service/code-samples: a sample written inline instead of a file of code_samples/', async () => {
      await expectFault(
        'openapi/paths/device_key.yaml',
        (text) =>
          text.replace(
            '      source:\n        $ref: ../code_samples/curl/device_key/get.sh\n',
            '      source: curl "$API_ROOT/device_key"\n',
          ),
        'service/code-samples',
        12,
        /is a file/,
      );
    });

    it('rule/timestamps-not-date-time: RFC 3339 date-time where the service writes its own timestamps', async () => {
      await expectFault(
        'openapi/components/schemas/Timestamp.yaml',
        (text) => text.replace('type: string', 'type: string\nformat: date-time'),
        'rule/timestamps-not-date-time',
        6,
      );
    });

    it('rule/schema-title: a named schema without a title', async () => {
      await expectFault('openapi/components/schemas/Zaaid.yaml', (text) => text.replace(/^title: .*\n/m, ''), 'rule/schema-title', 1);
    });
  });
});
