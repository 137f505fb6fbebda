/**
 * Model-based testing of machines (login, mfa, second factor, registration, sso, session, toast,
 * and the ones to come). One module per job, gathered here:
 *
 * - model/explicit-events.ts: the xstate/graph `TestModel` built on the real machine, with actors'
 *   answers (`xstate.done/error/snapshot…`) and named delays (`xstate.after.<delay>`) as explicit
 *   events, and `stateKey` to keep progress numbers from multiplying model states;
 * - model/covering-paths.ts: few paths covering every state, transition and listed event;
 * - model/coverage.ts: coverage counted on the real machine (`itCoversTheMachine`);
 * - model/actor-doubles.ts: promise and callback doubles that honour cancellation;
 * - model/run-path.ts: running a path against the rendered UI, and a SimulatedClock for delays;
 * - model/qa-model.ts: a machine's QA model (beside the machine, free of the DOM): its paths, their
 *   stable ids and their steps in plain Spanish, shared by the machine's test and `npm run qa`.
 */
export * from './model/explicit-events.ts';
export * from './model/covering-paths.ts';
export * from './model/coverage.ts';
export * from './model/actor-doubles.ts';
export * from './model/run-path.ts';
export * from './model/qa-model.ts';
