import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Config } from './config.ts';
import { createSearchPages, type AppContext, type ServerModule } from './context.ts';
import { openDatabase, type Db } from './db/database.ts';
import { migrateToLatest } from './db/migrator.ts';
import { healthModule } from './modules/health/routes.ts';
import { accountsModule } from './modules/accounts/routes.ts';
import { auditModule } from './modules/audit/routes.ts';
import { mediaModule } from './modules/media/routes.ts';
import { etiquetasModule } from './modules/etiquetas/routes.ts';
import { statisticsModule } from './modules/statistics/routes.ts';
import { subtitulosModule } from './modules/subtitulos/routes.ts';
import { uploadsModule } from './modules/uploads/routes.ts';
import { videosModule } from './modules/videos/routes.ts';
import { loggerOptions, OneLinePerRequest, registerRequestLog } from './logging.ts';
import { API_COMPRESSION } from './plugins/compression.ts';
import { loadContract, type Contract } from './openapi/contract.ts';
import { registerModules } from './openapi/modules.ts';
import { validateResponses, type ResponseViolation } from './openapi/response-validation.ts';
import { clientErrorHandler, frameworkErrors, registerProblemHandling } from './plugins/problems.ts';
import { registerSecurityHeaders } from './plugins/security-headers.ts';
import { registerSpa } from './plugins/spa.ts';
import { checkXsrf, registerXsrfCookie } from './plugins/xsrf.ts';
import { createMediaJobs, mediaTools, mediaToolsVersion } from './media/ffmpeg.ts';
import { loadSecrets } from './secrets.ts';
import { checkStorage, openStorage } from './storage/open-storage.ts';

export interface BuildOptions {
  config: Config;
  /** an open database; by default the one the config names is opened (and closed with the app) */
  db?: Db;
  logger?: FastifyServerOptions['logger'];
  /** tests pass an array: every /api response is checked against openapi.yaml and violations collected */
  responseViolations?: ResponseViolation[];
  /** modules wired after the server's own (tests use it to check how buildApp wires modules) */
  extraModules?: (ctx: AppContext) => ServerModule[];
}

let contract: Contract | undefined;

/** Builds the whole server: /api from openapi.yaml, the SPA, the database (migrated). Not listening yet. */
export async function buildApp(options: BuildOptions): Promise<FastifyInstance> {
  const { config } = options;
  const app = Fastify({
    logger: options.logger ?? loggerOptions(config),
    logController: new OneLinePerRequest(),
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    forceCloseConnections: 'idle',
    // While closing, requests still arriving get a 503 problem from registerProblemHandling instead.
    return503OnClosing: false,
    frameworkErrors,
    clientErrorHandler,
    ajv: { customOptions: { removeAdditional: false } },
  });

  const db = options.db ?? (await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }));
  if (!options.db) app.addHook('onClose', async () => db.close());
  try {
    await wire(app, db, options);
  } catch (error) {
    // e.g. two modules claiming one operation: nothing is left open behind the error
    await app.close();
    throw error;
  }
  return app;
}

/**
 * What the web server and the processing worker (server/processing-worker.ts) both start from: the
 * database migrated, the storage checked and opened, the secrets, the media job slots.
 */
export async function openContext(config: Config, db: Db, log: FastifyBaseLogger): Promise<AppContext> {
  await migrateToLatest(db);
  await checkStorage(config);
  return { config, db, secrets: loadSecrets(config), log, storage: openStorage(config), media: createMediaJobs(), searchPages: createSearchPages() };
}

async function wire(app: FastifyInstance, db: Db, options: BuildOptions): Promise<void> {
  const { config } = options;
  const ctx = await openContext(config, db, app.log);
  app.decorate('ctx', ctx);

  await app.register(fastifyCookie);
  await app.register(fastifyCompress, API_COMPRESSION);

  registerRequestLog(app);
  registerProblemHandling(app);
  registerSecurityHeaders(app);
  registerXsrfCookie(app);

  contract ??= loadContract();
  if (options.responseViolations) validateResponses(app, contract, options.responseViolations);

  const modules: ServerModule[] = [healthModule(ctx), accountsModule(ctx), videosModule(ctx), etiquetasModule(ctx), mediaModule(ctx), uploadsModule(ctx), auditModule(ctx), statisticsModule(ctx), subtitulosModule(ctx)];
  if (options.extraModules) modules.push(...options.extraModules(ctx));
  const { unimplemented } = await registerModules(app, contract, modules, { schemes: { xsrf: checkXsrf } });
  app.decorate('unimplementedOperations', unimplemented);
  if (unimplemented.length > 0) app.log.info({ operations: unimplemented }, 'operations without a handler answer 501');

  await registerSpa(app, config.clientDir);
  // with PROCESSING=off, videos are processed by a worker, which says which ffmpeg it runs
  if (config.processing) app.addHook('onReady', async () => void logMediaTools(app.log).catch(() => undefined));
}

/**
 * Says at start which ffmpeg the uploads will run (the system's is preferred over the bundled 2018
 * build); warns, and rethrows, when it cannot be run.
 */
export async function logMediaTools(log: FastifyBaseLogger): Promise<void> {
  if (!log.level || log.level === 'silent') return; // tests without logs start no ffmpeg
  try {
    const tools = mediaTools();
    log.info({ ffmpeg: tools.ffmpeg, ffprobe: tools.ffprobe, version: await mediaToolsVersion(tools) }, 'media tools');
  } catch (error) {
    log.warn({ err: error }, 'media tools: ffmpeg cannot be run; uploads will fail to process');
    throw error;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
    /** operationIds of openapi.yaml no module handles yet (they answer 501) */
    unimplementedOperations: string[];
  }
}
