import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Config } from './config.ts';
import type { AppContext, ServerModule } from './context.ts';
import { openDatabase, type Db } from './db/database.ts';
import { migrateToLatest } from './db/migrator.ts';
import { healthModule } from './modules/health/routes.ts';
import { accountsModule } from './modules/accounts/routes.ts';
import { mediaModule } from './modules/media/routes.ts';
import { etiquetasModule } from './modules/etiquetas/routes.ts';
import { videosModule } from './modules/videos/routes.ts';
import { loadContract, type Contract } from './openapi/contract.ts';
import type { Handlers } from './openapi/handlers.ts';
import { registerOperations } from './openapi/register-operations.ts';
import { validateResponses, type ResponseViolation } from './openapi/response-validation.ts';
import { registerProblemHandling } from './plugins/problems.ts';
import { registerSecurityHeaders } from './plugins/security-headers.ts';
import type { SecuritySchemes } from './plugins/security.ts';
import { registerSpa } from './plugins/spa.ts';
import { checkXsrf, registerXsrfCookie } from './plugins/xsrf.ts';
import { loadSecrets } from './secrets.ts';

export interface BuildOptions {
  config: Config;
  /** an open database; by default the one the config names is opened (and closed with the app) */
  db?: Db;
  logger?: FastifyServerOptions['logger'];
  /** tests pass an array: every /api response is checked against openapi.yaml and violations collected */
  responseViolations?: ResponseViolation[];
}

let contract: Contract | undefined;

/** Builds the whole server: /api from openapi.yaml, the SPA, the database (migrated). Not listening yet. */
export async function buildApp(options: BuildOptions): Promise<FastifyInstance> {
  const { config } = options;
  const app = Fastify({
    logger: options.logger ?? { level: config.logLevel, redact: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-xsrf-token"]'] },
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    forceCloseConnections: 'idle',
    return503OnClosing: true,
    ajv: { customOptions: { removeAdditional: false } },
  });

  const db = options.db ?? (await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }));
  if (!options.db) app.addHook('onClose', async () => db.close());
  await migrateToLatest(db);

  const ctx: AppContext = { config, db, secrets: loadSecrets(config), log: app.log };
  app.decorate('ctx', ctx);

  await app.register(fastifyCookie);
  app.addContentTypeParser('application/json-patch+json', { parseAs: 'string' }, app.getDefaultJsonParser('error', 'error'));
  // Files sent to signed upload locations are streamed by their handler, not parsed.
  for (const type of ['application/octet-stream', /^video\//, /^image\//]) {
    app.addContentTypeParser(type, (_request, payload, done) => done(null, payload));
  }

  registerProblemHandling(app);
  registerSecurityHeaders(app);
  registerXsrfCookie(app);

  contract ??= loadContract();
  if (options.responseViolations) validateResponses(app, contract, options.responseViolations);

  const modules: ServerModule[] = [healthModule(ctx), accountsModule(ctx), videosModule(ctx), etiquetasModule(ctx), mediaModule(ctx)];
  const handlers: Handlers = Object.assign({}, ...modules.map((m) => m.handlers));
  const schemes = Object.assign({ xsrf: checkXsrf }, ...modules.map((m) => m.security ?? {})) as SecuritySchemes;
  registerOperations(app, contract, handlers, schemes);

  await registerSpa(app, config.clientDir);
  return app;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}
