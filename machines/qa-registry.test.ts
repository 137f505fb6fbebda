/**
 * The QA registry (tests/qa/registry.ts) against machines/: every machine has its QA model, each
 * model's covering paths walk every state and transition of the real machine, and every path reads
 * as steps with a stable id, in Spanish only: every state has a short Spanish name for QA
 * (`meta.qa`) and `npm run qa -- list` shows those, never the developers' English descriptions.
 * (Each machine's own test walks the same paths on the rendered UI and checks that every event has
 * an executor and every state a check.)
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AnyStateMachine, AnyStateNode } from 'xstate';
import { describe, expect, it } from 'vitest';
import { listLines, pathLines } from '../tests/qa/list.ts';
import { findEntry, registry } from '../tests/qa/registry.ts';
import { coverageReport } from '../tests/utils/model/coverage.ts';
import { qaName } from '../tests/utils/model/qa-model.ts';

const machinesDir = path.dirname(fileURLToPath(import.meta.url));
const root = path.dirname(machinesDir);

/** The folders of machines/ that hold a machine (shared/ holds types; video-form/ only rules). */
const machineFolders = fs
  .readdirSync(machinesDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && entry.name !== 'shared')
  .filter((entry) => fs.readdirSync(path.join(machinesDir, entry.name)).some((file) => file.endsWith('.machine.ts')))
  .map((entry) => entry.name);

/** Every state node of a machine, the root (named by the model's title) apart. */
function stateNodes(machine: AnyStateMachine): AnyStateNode[] {
  const below = (node: AnyStateNode): AnyStateNode[] => Object.values(node.states).flatMap((child) => [child, ...below(child)]);
  return below(machine.root);
}

/** Words of an English sentence that a Spanish name never holds. */
const ENGLISH = /\b(the|and|with|of|is|are|to|on|for|from|its|no longer|waiting|shown|open|closed)\b/i;

describe('the QA registry', () => {
  it('registers every machine of machines/', () => {
    const missing = machineFolders.filter((folder) => !findEntry(folder));
    expect(missing, 'machines without a QA model in tests/qa/registry.ts').toEqual([]);
  });

  it('prints paths in Spanish only: no English description of any state appears in the listing', () => {
    const listing = listLines(registry).join('\n');
    const descriptions = registry.flatMap(({ model }) =>
      [model.machine.root, ...stateNodes(model.machine)].map((node) => node.description).filter((text): text is string => Boolean(text)),
    );
    expect(descriptions.length).toBeGreaterThan(80);
    expect(descriptions.filter((description) => listing.includes(description))).toEqual([]);
    expect(listing).not.toContain('sin nombre');
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

    it('name every state in short Spanish for QA, each name its own', () => {
      const nodes = stateNodes(model.machine);
      const unnamed = nodes.filter((node) => qaName(node) === undefined).map((node) => node.id);
      expect(unnamed, 'states without meta: { qa: … }').toEqual([]);
      for (const node of nodes) {
        const name = qaName(node)!;
        expect(name.length, node.id).toBeLessThanOrEqual(50);
        expect(name, node.id).not.toMatch(ENGLISH);
        expect(name, node.id).not.toBe(node.description);
      }
      const names = nodes.map((node) => qaName(node));
      expect(names.filter((name, index) => names.indexOf(name) !== index), 'names used by two states').toEqual([]);
    });

    it('name the state a path starts in once, then only the states each step changes to', () => {
      for (const qaPath of model.paths) {
        const lines = pathLines(qaPath);
        expect(lines, qaPath.id).toHaveLength(qaPath.steps.length + 1);
        expect(lines[0], qaPath.id).toContain(qaPath.start);
        qaPath.steps.forEach((step, index) => {
          const line = lines[index + 1]!;
          expect(line.startsWith(`     ${index + 1}. ${step.event}`), line).toBe(true);
          // The state it comes from is the previous line's: said once, not again at this step.
          if (step.toState === step.fromState) expect(line, line).not.toContain(' → ');
          else expect(line.endsWith(` → ${step.to}`), line).toBe(true);
        });
      }
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
