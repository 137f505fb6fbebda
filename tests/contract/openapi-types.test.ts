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

  it('no API type is written by hand: src/, server/ and machines/ import them from the generated file', () => {
    const generated = fs.readFileSync(path.join(root, 'contract/openapi.gen.ts'), 'utf8');
    /** The top-level property names of the object body starting at `open` (the index of its '{'). */
    const fieldsAt = (text: string, open: number): string[] => {
      const fields: string[] = [];
      let depth = 0;
      for (let index = open; index < text.length; index += 1) {
        const char = text[index];
        if (char === '{' || char === '(' || char === '[') depth += 1;
        else if (char === '}' || char === ')' || char === ']') {
          depth -= 1;
          if (depth === 0) break;
        } else if (depth === 1 && (char === '\n' || char === '{' || char === ';')) {
          const field = /^\s*(?:readonly\s+)?["']?([A-Za-z_$][\w$-]*)["']?\??\s*:/.exec(text.slice(index + 1));
          if (field) fields.push(field[1]!);
        }
      }
      return fields.sort();
    };
    const schemasBlock = generated.slice(generated.indexOf('    schemas: {'), generated.indexOf('    responses: {'));
    const schemas = new Map<string, string>();
    for (const match of schemasBlock.matchAll(/^ {8}([A-Za-z0-9_]+): \{/gm)) {
      schemas.set(match[1]!, fieldsAt(schemasBlock, match.index + match[0].length - 1).join(','));
    }
    const shapes = new Map([...schemas].filter(([, fields]) => fields.split(',').length >= 2).map(([name, fields]) => [fields, name]));

    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (/\.(ts|tsx)$/.test(entry.name) && !entry.name.endsWith('.gen.ts')) {
          const text = fs.readFileSync(full, 'utf8');
          // A hand-written copy of a contract schema: an object type named like a schema, or with exactly a schema's fields.
          for (const match of text.matchAll(/(?:interface\s+(\w+)(?:<[^>{]*>)?(?:\s+extends[^{]*)?|type\s+(\w+)(?:<[^>=]*>)?\s*=)\s*\{/g)) {
            const name = match[1] ?? match[2]!;
            const copied = schemas.has(name) ? name : shapes.get(fieldsAt(text, match.index + match[0].length - 1).join(','));
            if (copied) offenders.push(`${path.relative(root, full)}: ${name} (${copied})`);
          }
        }
      }
    };
    walk(path.join(root, 'src'));
    walk(path.join(root, 'server'));
    walk(path.join(root, 'machines'));
    expect(schemas.size).toBeGreaterThan(20);
    expect(offenders).toEqual([]);
  });
});
