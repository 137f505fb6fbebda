/**
 * The text of `npm run qa -- list`: each machine's paths as numbered steps, in Spanish only. A
 * path names the state it starts in once, then each step says what happens and the state it leads
 * to (the states' short names, `meta.qa`), so no state is repeated from one step to the next.
 */
import type { AnyQaModel, QaStep } from '../utils/model/qa-model.ts';
import { jsdomOnlyReason, productionNotes } from './browser/plan.ts';
import { findBrowserPlan } from './browser/plans.ts';
import { coverageSummary } from './report.ts';
import type { QaEntry } from './registry.ts';

/** "<event> → <state>", or "<event>; sigue en el mismo estado" when the state does not change. */
export const stepLine = (step: QaStep) =>
  step.toState === step.fromState ? `${step.event}; sigue en el mismo estado` : `${step.event} → ${step.to}`;

/** One path: where it starts, then its steps. */
export function pathLines(qaPath: AnyQaModel['paths'][number]): string[] {
  return [`     empieza en: ${qaPath.start}`, ...qaPath.steps.map((step, index) => `     ${index + 1}. ${stepLine(step)}`)];
}

/** The listing of the given machines' paths, line by line. */
export function listLines(entries: readonly QaEntry[]): string[] {
  const lines: string[] = [];
  for (const entry of entries) {
    const { model } = entry;
    const plan = findBrowserPlan(entry.name);
    const coverage = coverageSummary(entry);
    const browserCount = plan ? model.paths.filter((qaPath) => jsdomOnlyReason(plan, qaPath) === null).length : 0;
    lines.push('', `${entry.name} — ${model.title}`);
    lines.push(
      `  ${entry.testFile} · ${model.paths.length} caminos · estados ${coverage.statesWalked}/${coverage.states} · transiciones ${coverage.transitionsWalked}/${coverage.transitions}` +
        (plan ? ` · en Chromium: ${browserCount} de ${model.paths.length}` : ' · solo jsdom (sin plan de navegador)'),
    );
    for (const qaPath of model.paths) {
      const reason = plan ? jsdomOnlyReason(plan, qaPath) : null;
      const where = !plan ? 'jsdom' : reason ? `solo jsdom — ${reason}` : 'jsdom y Chromium';
      const notes = plan && !reason ? productionNotes(plan, qaPath) : [];
      lines.push('', `  ${qaPath.id}  [${where}]`);
      if (notes.length) lines.push(`            En Chromium: ${notes.join('; ')}`);
      if (qaPath.variant) lines.push(`     desde ${qaPath.variant.description}`);
      lines.push(...pathLines(qaPath));
      if (qaPath.steps.length === 0) lines.push('     (sin pasos: el estado inicial)');
    }
  }
  return lines;
}
