import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

describe('generated API types', () => {
  it('contract/openapi.gen.ts is what `npm run gen:api` makes from openapi.yaml today', () => {
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tao-gen-')), 'openapi.gen.ts');
    execFileSync(process.execPath, [path.join(root, 'node_modules/openapi-typescript/bin/cli.js'), 'openapi.yaml', '-o', out], {
      cwd: root,
      stdio: 'pipe',
    });
    const fresh = fs.readFileSync(out, 'utf8');
    const committed = fs.readFileSync(path.join(root, 'contract/openapi.gen.ts'), 'utf8');
    expect(committed === fresh, 'contract/openapi.gen.ts is stale: run `npm run gen:api` and commit it').toBe(true);
  }, 30_000); // runs the generator in a child process: seconds on a busy machine

  it('no API type is written by hand: src/ and server/ import them from the generated file', () => {
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (/\.(ts|tsx)$/.test(entry.name) && !entry.name.endsWith('.gen.ts')) {
          const text = fs.readFileSync(full, 'utf8');
          // A hand-written copy of a contract schema would declare one of its characteristic shapes.
          if (/interface\s+(Video|Etiqueta|Usuario|LoginResponse|Problem|UploadSession)\s*\{/.test(text)) offenders.push(path.relative(root, full));
        }
      }
    };
    walk(path.join(root, 'src'));
    walk(path.join(root, 'server'));
    expect(offenders).toEqual([]);
  });
});
