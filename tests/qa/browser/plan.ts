/**
 * Running a machine's QA paths in Chromium against a real server: the same paths the machine's
 * test walks in jsdom, with executors that cause each event in a real browser and checks of what a
 * person sees in each state.
 *
 * In jsdom the network is a set of doubles the test answers one call at a time. Here each actor's
 * calls are *held* at the browser (page.route) until a step of the path answers them, so every
 * in-between state (a loader, a disabled form) can be looked at; the step that answers then lets
 * the call through to the real server (whose answer the path's input was chosen to
 * provoke: a wrong password, a file that is not a video…), cuts the network (route.abort), or, for
 * the few answers a healthy server cannot be made to give on demand (a 503), answers with the
 * problem itself (route.fulfill): `production` says which, per event, in the listing.
 */
import fs from 'node:fs';
import path_ from 'node:path';
import type { Browser, BrowserContext, Page, Request, Route } from 'playwright-core';
import type { AnyMachineSnapshot, AnyStateNode, EventObject } from 'xstate';
import type { QaPath } from '../../utils/model/qa-model.ts';
import type { Instance } from './world.ts';

export type AnyQaPath = QaPath<any, any>;

/** How a step's event is produced in the browser, for the listing. */
export type Production = 'real' | 'network' | 'injected' | 'time' | 'storage';

/** Where the paths run: a fresh temporary product, or another instance (`--base-url`). */
export interface QaWorld<TData> {
  instance: Instance;
  browser: Browser;
  /** What the plan's `prepare` made (accounts, files, tags). */
  data: TData;
}

/** One call an actor made, held until the path says how it is answered. */
export interface HeldCall {
  request: Request;
  /** To the real server. */
  pass(): Promise<void>;
  /** The real server's answer, looked at before the browser gets it (and handed on as it is, or changed). */
  fetch(): Promise<{ status: number; json: unknown; fulfill: () => Promise<void>; fulfillWith: (json: unknown) => Promise<void> }>;
  /** The network fails (the browser's fetch/XHR rejects). */
  cut(): Promise<void>;
  /** A problem+json answer the real server was not asked for. */
  answerProblem(status: number, type: string): Promise<void>;
}

/** Which requests are an actor's calls. */
export interface Gate {
  method: string;
  matches: (url: URL) => boolean;
}

export interface StepContext<TEvent extends EventObject, TData, TLocal = unknown> {
  page: Page;
  world: QaWorld<TData>;
  /** What `open` made for this path (its accounts, what the server answered so far). */
  local: TLocal;
  event: TEvent;
  path: AnyQaPath;
  /** The step's index in `path.path.steps` (1 is the first event). */
  index: number;
  /** The snapshot the event starts from and the one it leads to (the model's). */
  before: AnyMachineSnapshot;
  after: AnyMachineSnapshot;
  /** The oldest call of `actor` the browser made and the gate holds (waits for it, 20 s by default). */
  held(actor: string, timeoutMs?: number): Promise<HeldCall>;
  /** The events of the path after this step. */
  rest(): EventObject[];
}

export type BrowserExecutor<TEvent extends EventObject, TData, TLocal = unknown> = (
  context: StepContext<TEvent, TData, TLocal>,
) => Promise<void>;

/** For each event type: how to cause it in Chromium, or why it cannot be (the paths that take it stay jsdom-only). */
export type BrowserExecutors<TEvent extends EventObject, TData, TLocal = unknown> = {
  [K in TEvent['type']]: BrowserExecutor<Extract<TEvent, { type: K }>, TData, TLocal> | { jsdomOnly: string };
};

export interface StateContext<TData, TLocal = unknown> {
  page: Page;
  world: QaWorld<TData>;
  local: TLocal;
  snapshot: AnyMachineSnapshot;
  path: AnyQaPath;
}

export interface BrowserPlan<TEvent extends EventObject, TData, TLocal = unknown> {
  machine: string;
  /** Once per run: what the paths need on the instance (accounts, files). */
  prepare(world: Omit<QaWorld<TData>, 'data'>): Promise<TData>;
  /** Once per path, on a fresh page: brings it where the machine starts; answers the path's own data. */
  open(context: { page: Page; world: QaWorld<TData>; path: AnyQaPath }): Promise<TLocal>;
  gates: Record<string, Gate>;
  executors: BrowserExecutors<TEvent, TData, TLocal>;
  /** A reason when an event can be caused in Chromium with some payloads, or from some states, only. */
  jsdomOnlyEvent?: (event: TEvent, before: AnyMachineSnapshot) => string | null;
  /** How each event is produced (default: 'real'); the listing names the non-real ones. */
  production?: (event: TEvent) => Production;
  /** What else the listing says of how a path runs in Chromium (where it starts from). */
  notes?: (path: AnyQaPath) => string[];
  /** What a person sees in each stable leaf state, keyed '#<state node id>'. */
  states: Record<`#${string}`, (context: StateContext<TData, TLocal>) => Promise<void>>;
}

export type AnyBrowserPlan = BrowserPlan<any, any, any>;

/** Why a path cannot run in Chromium (its first step that cannot be caused there), or null. */
export function jsdomOnlyReason(plan: AnyBrowserPlan, path: AnyQaPath): string | null {
  for (const [index, step] of path.path.steps.slice(1).entries()) {
    const executor = (plan.executors as Record<string, unknown>)[step.event.type] as { jsdomOnly?: string } | undefined;
    const before = path.path.steps[index]!.state;
    const reason = executor === undefined ? 'no browser executor' : (executor.jsdomOnly ?? plan.jsdomOnlyEvent?.(step.event, before));
    if (reason) return `paso ${index + 1}: ${reason}`;
  }
  return null;
}

/** The non-real productions of a path's steps, for the listing ('paso 2: inyectada'). */
export function productionNotes(plan: AnyBrowserPlan, path: AnyQaPath): string[] {
  const words: Record<Production, string> = {
    real: '',
    network: 'red cortada con page.route',
    injected: 'respuesta inyectada con page.route',
    time: 'reloj del navegador adelantado',
    storage: 'el navegador no guarda la sesión (localStorage.setItem falla a propósito)',
  };
  return [
    ...(plan.notes?.(path) ?? []),
    ...path.path.steps
      .slice(1)
      .map((step, index) => ({ index, production: plan.production?.(step.event) ?? 'real' }))
      .filter(({ production }) => production !== 'real')
      .map(({ index, production }) => `paso ${index + 1}: ${words[production]}`),
  ];
}

const SCREENSHOTS = path_.resolve(import.meta.dirname, '../../../test-results/qa/screenshots');

const leafIds = (snapshot: AnyMachineSnapshot) =>
  snapshot._nodes.filter((node: AnyStateNode) => node.parent && Object.keys(node.states).length === 0).map((node) => `#${node.id}`);

/** The held calls of every gate of a browser context. */
function holdCalls(context: BrowserContext, gates: Record<string, Gate>) {
  let holding = true;
  const queues = new Map<string, Array<{ route: Route; request: Request }>>();
  const queue = (actor: string) => queues.get(actor) ?? (queues.set(actor, []), queues.get(actor)!);

  const install = context.route('**/*', async (route, request) => {
    const url = new URL(request.url());
    const actor = Object.entries(gates).find(([, gate]) => gate.method === request.method() && gate.matches(url))?.[0];
    if (!actor || !holding) {
      await route.fallback().catch(() => {});
      return;
    }
    queue(actor).push({ route, request });
  });

  const wrap = ({ route, request }: { route: Route; request: Request }): HeldCall => ({
    request,
    pass: () => route.fallback(),
    async fetch() {
      const response = await route.fetch();
      const body = await response.body();
      let json: unknown = null;
      try {
        json = JSON.parse(body.toString('utf8'));
      } catch {
        /* not JSON */
      }
      return {
        status: response.status(),
        json,
        fulfill: () => route.fulfill({ response, body }),
        fulfillWith: (changed) => route.fulfill({ response, json: changed }),
      };
    },
    cut: () => route.abort('failed'),
    answerProblem: (status, type) =>
      route.fulfill({
        status,
        contentType: 'application/problem+json',
        body: JSON.stringify({ type, title: type, status, detail: 'answered by the QA run (page.route)' }),
      }),
  });

  return {
    ready: install,
    async take(actor: string, timeoutMs = 20_000): Promise<HeldCall> {
      const deadline = Date.now() + timeoutMs;
      while (queue(actor).length === 0) {
        if (Date.now() > deadline) throw new Error(`The app made no call of ${actor} (${gates[actor]?.method ?? ''}) within ${timeoutMs / 1000} s`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return wrap(queue(actor).shift()!);
    },
    /** Lets every call still held go to the server (the path is over). */
    async release() {
      holding = false;
      for (const list of queues.values()) for (const call of list.splice(0)) await call.route.fallback().catch(() => {});
    },
  };
}

/**
 * Runs one QA path in a fresh browser context: `open`, then for each step the executor of its
 * event and the check of the state it leads to (the initial state is checked first). Every call of
 * a gated actor is held until an executor answers it, so each state stays put while it is checked.
 */
export async function runBrowserPath<TData, TLocal>(
  plan: BrowserPlan<EventObject, TData, TLocal>,
  path: AnyQaPath,
  world: QaWorld<TData>,
): Promise<void> {
  const reason = jsdomOnlyReason(plan, path);
  if (reason) throw new Error(`Path ${path.id} cannot run in Chromium: ${reason}`);
  const context = await world.browser.newContext({
    baseURL: world.instance.url,
    viewport: { width: 1280, height: 900 },
    locale: 'es-ES',
    timezoneId: 'Europe/Madrid',
  });
  const calls = holdCalls(context, plan.gates);
  await calls.ready;
  const steps = path.path.steps as Array<{ state: AnyMachineSnapshot; event: EventObject }>;
  const events = steps.map((step) => step.event);
  const check = async (snapshot: AnyMachineSnapshot, page: Page, where: string) => {
    for (const id of leafIds(snapshot)) {
      const stateCheck = plan.states[id as `#${string}`];
      if (!stateCheck) throw new Error(`No browser check for the state ${id}`);
      try {
        await stateCheck({ page, world, local, snapshot, path });
      } catch (error) {
        throw new Error(`${where}: ${id} is not what a person should see: ${error instanceof Error ? error.message : String(error)}`, {
          cause: error,
        });
      }
    }
  };
  const page = await context.newPage();
  let local = undefined as TLocal;
  try {
    local = await plan.open({ page, world, path });
    await check(steps[0]!.state, page, 'at the start');
    for (let index = 1; index < steps.length; index += 1) {
      const step = steps[index]!;
      const label = `step ${index} (${path.steps[index - 1]?.event ?? step.event.type})`;
      const executor = (plan.executors as Record<string, BrowserExecutor<EventObject, TData, TLocal>>)[step.event.type]!;
      try {
        await executor({
          page,
          world,
          local,
          event: step.event,
          path,
          index,
          before: steps[index - 1]!.state,
          after: step.state,
          held: (actor, timeoutMs) => calls.take(actor, timeoutMs),
          rest: () => events.slice(index + 1),
        });
      } catch (error) {
        throw new Error(`${label}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
      }
      await check(step.state, page, `after ${label}`);
    }
  } catch (error) {
    // What the page showed when the path failed, for the person reading the failure.
    const file = path_.join(SCREENSHOTS, `${plan.machine}-${path.id}.png`);
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: file, fullPage: true }).catch(() => {});
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n(screenshot: ${path_.relative(process.cwd(), file)})`, { cause: error });
  } finally {
    await calls.release();
    await context.close();
  }
}
