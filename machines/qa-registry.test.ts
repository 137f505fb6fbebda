/**
 * The QA registry (tests/qa/registry.ts) against machines/: every machine has its QA model, each
 * model's covering paths walk every state and transition of the real machine, and every path reads
 * as steps with a stable id. (Each machine's own test walks the same paths on the rendered UI and
 * checks that every event has an executor and every state a check.)
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findEntry, registry } from '../tests/qa/registry.ts';
import { coverageReport } from '../tests/utils/model/coverage.ts';

const machinesDir = path.dirname(fileURLToPath(import.meta.url));
const root = path.dirname(machinesDir);

/** The folders of machines/ that hold a machine (shared/ holds types; video-form/ only rules). */
const machineFolders = fs
  .readdirSync(machinesDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && entry.name !== 'shared')
  .filter((entry) => fs.readdirSync(path.join(machinesDir, entry.name)).some((file) => file.endsWith('.machine.ts')))
  .map((entry) => entry.name);

describe('the QA registry', () => {
  it('registers every machine of machines/', () => {
    const missing = machineFolders.filter((folder) => !findEntry(folder));
    expect(missing, 'machines without a QA model in tests/qa/registry.ts').toEqual([]);
  });

  it('registers each machine once, under its folder, with the test that walks its model on the UI', () => {
    const names = registry.map((entry) => entry.name);
    expect(new Set(names).size).toBe(names.length);
    for (const entry of registry) {
      expect(machineFolders, entry.name).toContain(entry.name);
      const test = path.join(root, entry.testFile);
      expect(fs.existsSync(test), entry.testFile).toBe(true);
      // The test builds nothing of its own: it walks the model the QA tool lists.
      expect(fs.readFileSync(test, 'utf8'), entry.testFile).toContain(`./${entry.name}.model.test-support.ts`);
    }
  });
});

for (const { name, model } of registry) {
  describe(`QA paths of ${name}`, () => {
    it('walk every state node and every transition of the machine, and take every listed event', () => {
      const { undescribed, unvisited, untaken, undeclared, unusedEvents } = coverageReport(model.machine, model.paths, {
        events: model.events,
      });
      expect({ undescribed, unvisited, untaken, undeclared, unusedEvents }).toEqual({
        undescribed: [],
        unvisited: [],
        untaken: [],
        undeclared: [],
        unusedEvents: [],
      });
    });

    it('have one id each, and read as steps in plain words', () => {
      const ids = model.paths.map((qaPath) => qaPath.id);
      expect(new Set(ids).size).toBe(ids.length);
      for (const qaPath of model.paths) {
        expect(qaPath.id).toMatch(/^[0-9a-f]{8}$/);
        expect(qaPath.name.startsWith(`${qaPath.id} `)).toBe(true);
        expect(qaPath.steps).toHaveLength(qaPath.path.steps.length - 1);
        for (const step of qaPath.steps) {
          for (const text of [step.from, step.event, step.to]) expect(text.trim(), qaPath.name).not.toBe('');
        }
      }
    });
  });
}
