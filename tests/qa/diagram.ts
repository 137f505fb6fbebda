/**
 * A Mermaid state diagram (`stateDiagram-v2`) of a machine, generated from its definition
 * (machine.root): every state node under its Spanish QA name (compound states as composites,
 * parallel regions separated by `--`), every transition with its event and guard, `always`
 * branches, actors' answers and delays.
 */
import type { AnyStateMachine, AnyStateNode, AnyTransitionDefinition } from 'xstate';
import { qaName } from '../utils/model/qa-model.ts';

/** The Mermaid id of a state node: its path, made of word characters. */
const mermaidId = (node: AnyStateNode) => (node.parent ? `s_${node.path.join('__')}`.replace(/\W/g, '_') : 'root');

/** Mermaid treats `;`, `#`, braces, quotes and colons in labels as syntax. */
const clean = (text: string) => text.replace(/[;#{}"]/g, ' ').replace(/:/g, '·');

function guardName(guard: unknown): string | null {
  if (!guard) return null;
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'function') {
    const inner = (guard as { guards?: unknown[] }).guards;
    const names = inner?.map(guardName).filter(Boolean).join(', ');
    return names ? `${guard.name} ${names}` : guard.name || 'condición';
  }
  return (guard as { type?: string }).type ?? 'condición';
}

/** How an event descriptor reads on an arrow: 'submitLogin responde', 'tras pollInterval'… */
export function eventLabel(descriptor: string): string {
  const answer = /^xstate\.(done|error)\.actor\.(.+)$/.exec(descriptor);
  if (answer) return `${answer[2]} ${answer[1] === 'done' ? 'responde' : 'falla'}`;
  const snapshot = /^xstate\.snapshot\.(.+)$/.exec(descriptor);
  if (snapshot) return `${snapshot[1]} informa`;
  const after = /^xstate\.after\.([^.]+)\./.exec(descriptor);
  if (after) return `tras ${after[1]}`;
  return descriptor;
}

function transitionLabel(transition: AnyTransitionDefinition, always: boolean): string {
  const guard = guardName(transition.guard);
  const event = always ? 'siempre' : eventLabel(transition.eventType);
  return clean(guard ? `${event} [${guard}]` : event);
}

/** The `stateDiagram-v2` source of the machine. */
export function stateDiagram(machine: AnyStateMachine): string {
  const lines = ['stateDiagram-v2'];
  const edges: string[] = [];

  const declare = (node: AnyStateNode, indent: string) => {
    const children = Object.values(node.states) as AnyStateNode[];
    const id = mermaidId(node);
    // The boxes carry the states' Spanish QA names, as the paths beside the diagram do.
    const label = clean(qaName(node) ?? node.key);
    if (children.length === 0) {
      lines.push(`${indent}state "${label}" as ${id}`);
    } else {
      lines.push(`${indent}state "${label}" as ${id} {`);
      body(node, `${indent}  `);
      lines.push(`${indent}}`);
    }
    if (node.type === 'final') edges.push(`${id} --> [*]`);
  };

  const body = (node: AnyStateNode, indent: string) => {
    const children = Object.values(node.states) as AnyStateNode[];
    if (node.type === 'parallel') {
      children.forEach((child, index) => {
        if (index > 0) lines.push(`${indent}--`);
        declare(child, indent);
      });
      return;
    }
    const initial = node.initial?.target?.[0] as AnyStateNode | undefined;
    if (initial) lines.push(`${indent}[*] --> ${mermaidId(initial)}`);
    for (const child of children) declare(child, indent);
  };

  const collect = (node: AnyStateNode) => {
    const from = mermaidId(node);
    const add = (transition: AnyTransitionDefinition, always: boolean) => {
      const targets = (transition.target ?? []) as AnyStateNode[];
      const label = transitionLabel(transition, always);
      if (targets.length === 0) edges.push(`${from} --> ${from} : ${label}`);
      for (const target of targets) edges.push(`${from} --> ${mermaidId(target)} : ${label}`);
    };
    for (const list of node.transitions.values()) for (const transition of list) add(transition, false);
    for (const transition of node.always ?? []) add(transition, true);
    for (const child of Object.values(node.states) as AnyStateNode[]) collect(child);
  };

  if (machine.root.type === 'parallel') {
    lines.push(`  state "${clean(machine.root.key)}" as root {`);
    body(machine.root, '    ');
    lines.push('  }');
    lines.push('  [*] --> root');
  } else {
    body(machine.root, '  ');
  }
  collect(machine.root);
  return [...lines, ...edges.map((edge) => `  ${edge}`)].join('\n');
}

/** A link that opens the diagram in the Mermaid live editor (its `#base64:` state). */
export function mermaidLiveUrl(source: string): string {
  const state = JSON.stringify({ code: source, mermaid: JSON.stringify({ theme: 'default' }), autoSync: true, updateDiagram: true });
  return `https://mermaid.live/edit#base64:${Buffer.from(state, 'utf8').toString('base64')}`;
}
