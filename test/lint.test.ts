import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { root } from '../scripts/lib/paths.js';
import { run } from '../scripts/lib/run.js';

describe('lint', () => {
  it('passes on the description with the rules of redocly.yaml', async () => {
    const result = await run('redocly', ['lint', 'openapi/openapi.yaml'], { allowFailure: true });
    expect(result.stdout + result.stderr).toContain('Your API description is valid');
    expect(result.code).toBe(0);
  });

  describe('on a broken copy of the description', () => {
    let scratch = '';
    afterAll(() => rm(scratch, { recursive: true, force: true }));

    async function lintCopy(file: string, edit: (text: string) => string) {
      scratch = await mkdtemp(path.join(os.tmpdir(), 'lint-'));
      for (const entry of ['openapi', 'redocly.yaml', 'scripts/redocly-plugin.js']) {
        await cp(path.join(root, entry), path.join(scratch, entry), { recursive: true });
      }
      const target = path.join(scratch, file);
      await writeFile(target, edit(await readFile(target, 'utf8')));
      const result = await run('redocly', ['lint', path.join(scratch, 'openapi/openapi.yaml'), '--config', path.join(scratch, 'redocly.yaml'), '--format=stylish'], {
        allowFailure: true,
      });
      return { code: result.code, output: result.stdout + result.stderr };
    }

    it('names the file and line of an enum value without a name', async () => {
      const { code, output } = await lintCopy('openapi/components/schemas/GrantType.yaml', (text) =>
        text.replace('x-enum-varnames: [AuthorizationCode, RefreshToken]', 'x-enum-varnames: [AuthorizationCode]'),
      );
      expect(code).not.toBe(0);
      expect(output).toMatch(/components\/schemas\/GrantType\.yaml:\s*\n?\s*5:\d+\s+error\s+service\/enum-values-named/);
    });

    it('names the file and line of an operation whose scope disagrees with its security', async () => {
      const { code, output } = await lintCopy('openapi/paths/device_key.yaml', (text) =>
        text.replace('ServiceOAuth2: [Service.Admin.Read]', 'ServiceOAuth2: [Service.Admin.Update]'),
      );
      expect(code).not.toBe(0);
      expect(output).toMatch(/paths\/device_key\.yaml:\s*\n\s*\d+:\d+\s+error\s+service\/operation-scope-declared/);
    });

    it('rejects RFC 3339 date-time where the service writes its own timestamps', async () => {
      const { code, output } = await lintCopy('openapi/components/schemas/Timestamp.yaml', (text) =>
        text.replace('type: string', 'type: string\nformat: date-time'),
      );
      expect(code).not.toBe(0);
      expect(output).toMatch(/Timestamp\.yaml:\s*\n\s*\d+:\d+\s+error\s+rule\/timestamps-not-date-time/);
    });
  });
});
