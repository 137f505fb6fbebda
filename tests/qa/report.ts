/**
 * The HTML report of the QA paths: an index of the machines, and one page per machine with its
 * statechart (a Mermaid state diagram generated from the machine, drawn in the page by a copy of
 * mermaid.min.js written beside the report — no network needed — with its source and a mermaid.live
 * link) beside its paths, each with its steps in plain words and its last result in jsdom and in Chromium.
 */
import fs from 'node:fs';
import path from 'node:path';
import { coverageReport, declaredFeatures } from '../utils/model/coverage.ts';
import { jsdomOnlyReason, productionNotes } from './browser/plan.ts';
import { browserPlans, findBrowserPlan } from './browser/plans.ts';
import { mermaidLiveUrl, stateDiagram } from './diagram.ts';
import type { QaEntry } from './registry.ts';
import type { PathResult, ResultsStore } from './results.ts';

const escape = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

const STYLE = `
body { font-family: system-ui, sans-serif; margin: 2rem; color: #1f2933; }
h1 { font-size: 1.5rem; } h2 { font-size: 1.15rem; margin-top: 2rem; }
table { border-collapse: collapse; } td, th { border: 1px solid #d9e2ec; padding: .35rem .6rem; text-align: left; vertical-align: top; }
.layout { display: grid; grid-template-columns: minmax(20rem, 2fr) 3fr; gap: 2rem; align-items: start; }
pre { background: #f5f7fa; padding: 1rem; overflow: auto; font-size: .8rem; max-height: 40rem; }
.path { border: 1px solid #d9e2ec; border-radius: 6px; padding: .6rem 1rem; margin-bottom: 1rem; }
.path h3 { font-size: 1rem; margin: 0 0 .4rem; font-family: monospace; }
.badge { display: inline-block; border-radius: 4px; padding: 0 .4rem; margin-right: .4rem; font-size: .85rem; }
.passed { background: #c6f7e2; } .failed { background: #ffd0d0; } .notrun { background: #e4e7eb; } .jsdomonly { background: #fff3c4; }
ol { margin: .4rem 0; padding-left: 1.5rem; } li { margin: .2rem 0; }
.state { font-style: italic; } .event { font-weight: 600; } .muted { color: #616e7c; font-size: .85rem; }
details pre { max-height: 15rem; }
`;

/** Mermaid's browser build, copied beside the report so the diagrams draw offline. */
const MERMAID_SCRIPT = 'mermaid.min.js';
const mermaidSource = path.resolve(import.meta.dirname, '../../node_modules/mermaid/dist/mermaid.min.js');

function page(title: string, body: string, { diagrams = false } = {}): string {
  const draw = diagrams
    ? `<script src="${MERMAID_SCRIPT}"></script><script>mermaid.initialize({ startOnLoad: true, securityLevel: 'strict', theme: 'default' });</script>`
    : '';
  return `<!doctype html>
<html lang="es">
<head><meta charset="utf-8"><title>${escape(title)}</title><style>${STYLE}</style></head>
<body>
${body}
${draw}
</body>
</html>
`;
}

function badge(where: string, result: PathResult | undefined): string {
  if (!result) return `<span class="badge notrun">${where}: no ejecutado</span>`;
  const when = new Date(result.at).toLocaleString('es-ES', { timeZone: 'Europe/Madrid' });
  const word = result.status === 'passed' ? 'pasa' : 'falla';
  return `<span class="badge ${result.status}" title="${escape(when)}">${where}: ${word}</span><span class="muted">${escape(when)}</span>`;
}

/** What the machine declares and what its paths walk. */
export function coverageSummary(entry: QaEntry) {
  const declared = declaredFeatures(entry.model.machine);
  const report = coverageReport(entry.model.machine, entry.model.paths, { events: entry.model.events });
  return {
    states: declared.nodes.length,
    statesWalked: declared.nodes.length - report.unvisited.length,
    transitions: declared.transitions.length,
    transitionsWalked: declared.transitions.length - report.untaken.length,
    report,
  };
}

function machinePage(entry: QaEntry, results: ResultsStore): string {
  const { model } = entry;
  const plan = findBrowserPlan(entry.name);
  const diagram = stateDiagram(model.machine);
  const coverage = coverageSummary(entry);
  const paths = model.paths
    .map((qaPath) => {
      const reason = plan ? jsdomOnlyReason(plan, qaPath) : 'esta máquina no tiene plan de navegador';
      const notes = plan && !reason ? productionNotes(plan, qaPath) : [];
      const jsdom = results.jsdom[entry.name]?.[qaPath.id];
      const browser = results.browser[entry.name]?.[qaPath.id];
      const failures = [jsdom, browser]
        .filter((result): result is PathResult => result?.status === 'failed' && result.failure !== undefined)
        .map((result) => `<details><summary>Fallo</summary><pre>${escape(result.failure!)}</pre></details>`)
        .join('');
      const start = `<p>Empieza en <span class="state" title="${escape(qaPath.startState)}">${escape(qaPath.start)}</span></p>`;
      const steps = qaPath.steps.length
        ? `<ol>${qaPath.steps
            .map((step) =>
              step.toState === step.fromState
                ? `<li><span class="event">${escape(step.event)}</span>; sigue en el mismo estado</li>`
                : `<li><span class="event">${escape(step.event)}</span> → <span class="state" title="${escape(step.toState)}">${escape(step.to)}</span></li>`,
            )
            .join('')}</ol>`
        : '<p class="muted">Sin pasos: el estado inicial.</p>';
      return `<div class="path" id="p-${qaPath.id}">
<h3>${qaPath.id}</h3>
${qaPath.variant ? `<p class="muted">Desde ${escape(qaPath.variant.description)}</p>` : ''}
<p>${badge('jsdom', jsdom)} ${reason ? `<span class="badge jsdomonly">solo jsdom: ${escape(reason)}</span>` : badge('Chromium', browser)}</p>
${notes.length ? `<p class="muted">En Chromium: ${escape(notes.join('; '))}</p>` : ''}
${start}
${steps}
<p class="muted">npm run qa -- run ${entry.name} ${qaPath.id}${plan && !reason ? ` · npm run qa -- run --browser ${entry.name} ${qaPath.id}` : ''}</p>
${failures}
</div>`;
    })
    .join('\n');
  const checks = Object.values(results.checks[entry.name] ?? {})
    .map((check) => `<li><span class="badge ${check.status}">${check.status === 'passed' ? 'pasa' : 'falla'}</span>${escape(check.title)}</li>`)
    .join('');
  return page(
    `QA · ${entry.name}`,
    `<p><a href="index.html">← Todas las máquinas</a></p>
<h1>${escape(model.title)} <span class="muted">(${entry.name})</span></h1>
<p>Prueba: <code>${entry.testFile}</code> · ${model.paths.length} caminos · estados recorridos ${coverage.statesWalked}/${coverage.states} · transiciones recorridas ${coverage.transitionsWalked}/${coverage.transitions}</p>
<div class="layout">
<section>
<h2>Diagrama de estados</h2>
<pre class="mermaid">${escape(diagram)}</pre>
<details><summary>Fuente (Mermaid <code>stateDiagram-v2</code>, generada de la máquina)</summary><pre>${escape(diagram)}</pre></details>
<p><a href="${escape(mermaidLiveUrl(diagram))}">Abrir el diagrama en mermaid.live</a></p>
${checks ? `<h2>Comprobaciones de la prueba</h2><ul>${checks}</ul>` : ''}
</section>
<section>
<h2>Caminos</h2>
${paths}
</section>
</div>`,
    { diagrams: true },
  );
}

/** 'N pasan', 'N fallan' (when any does), 'N sin ejecutar' (when any is). */
function tally(passed: number, failed: number, total: number): string {
  const notRun = total - passed - failed;
  return [
    passed ? `<span class="badge passed">${passed} pasan</span>` : '',
    failed ? `<span class="badge failed">${failed} fallan</span>` : '',
    notRun ? `<span class="badge notrun">${notRun} sin ejecutar</span>` : '',
  ].join('');
}

function indexPage(entries: readonly QaEntry[], results: ResultsStore): string {
  const rows = entries
    .map((entry) => {
      const plan = findBrowserPlan(entry.name);
      const count = (where: 'jsdom' | 'browser', status: PathResult['status']) =>
        entry.model.paths.filter((qaPath) => results[where][entry.name]?.[qaPath.id]?.status === status).length;
      const browserPaths = plan ? entry.model.paths.filter((qaPath) => jsdomOnlyReason(plan, qaPath) === null).length : 0;
      const coverage = coverageSummary(entry);
      return `<tr>
<td><a href="${entry.name}.html">${entry.name}</a><br><span class="muted">${escape(entry.model.title)}</span></td>
<td>${entry.model.paths.length}</td>
<td>${coverage.statesWalked}/${coverage.states} · ${coverage.transitionsWalked}/${coverage.transitions}</td>
<td>${tally(count('jsdom', 'passed'), count('jsdom', 'failed'), entry.model.paths.length)}</td>
<td>${plan ? `${browserPaths} caminos: ${tally(count('browser', 'passed'), count('browser', 'failed'), browserPaths)}` : '<span class="muted">sin plan de navegador: solo jsdom</span>'}</td>
</tr>`;
    })
    .join('\n');
  return page(
    'QA · caminos de las máquinas',
    `<h1>Caminos generados de las máquinas de estados</h1>
<p>Cada camino sale del modelo de su máquina (xstate/graph) y se ejecuta contra la interfaz en jsdom; los de ${escape(browserPlans.map((plan) => plan.machine).join(', '))} también en Chromium contra un servidor real. Resultados: los últimos de <code>npm run qa -- run</code> (test-results/qa/results.json).</p>
<table>
<thead><tr><th>Máquina</th><th>Caminos</th><th>Estados · transiciones recorridos</th><th>jsdom</th><th>Chromium</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>`,
  );
}

/** Writes index.html and one page per machine into `outDir`; answers the index's path. */
export function writeReport(entries: readonly QaEntry[], results: ResultsStore, outDir: string): string {
  fs.mkdirSync(outDir, { recursive: true });
  fs.copyFileSync(mermaidSource, path.join(outDir, MERMAID_SCRIPT));
  for (const entry of entries) fs.writeFileSync(path.join(outDir, `${entry.name}.html`), machinePage(entry, results));
  const index = path.join(outDir, 'index.html');
  fs.writeFileSync(index, indexPage(entries, results));
  return index;
}
