import type { FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';
import { logMediaTools, openContext } from './app.ts';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import { openDatabase, type Db } from './db/database.ts';
import { loggerOptions } from './logging.ts';
import { removeAbandonedWorkDirs, workParentOf } from './media/work-dirs.ts';
import { ABANDONED_AFTER_MS, createUploadsService, type ProcessingOptions } from './modules/uploads/uploads.service.ts';

export interface WorkerOptions {
  config: Config;
  /** an open database; by default the one the config names is opened (and closed by stop) */
  db?: Db;
  /** by default the server's pino options (LOG_LEVEL) on stdout */
  log?: FastifyBaseLogger;
  /** tests: the instance's name, a short poll or lease */
  processing?: ProcessingOptions;
}

export interface ProcessingWorker {
  /** names this worker in the leases it holds */
  instanceId: string;
  ctx: AppContext;
  /** takes no more videos, waits up to `waitMs` for those running, gives up the leases of the rest */
  stop(waitMs?: number): Promise<void>;
}

/**
 * Processing alone, without an HTTP listener (`npm run worker`, docs/decisions/0111-processing-workers.md):
 * the context buildApp makes and the uploads service's own queue, leases and polling, on the shared
 * database and storage. It processes whatever PROCESSING is set to: that switch is for web instances.
 */
export async function startProcessingWorker(options: WorkerOptions): Promise<ProcessingWorker> {
  const config: Config = { ...options.config, processing: true };
  const log: FastifyBaseLogger = options.log ?? pino(loggerOptions(config));
  const db = options.db ?? (await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }));
  try {
    const ctx = await openContext(config, db, log);
    await logMediaTools(log);
    // a worker that died left its work directories on this machine; web instances sweep only theirs
    await removeAbandonedWorkDirs(new Date(Date.now() - ABANDONED_AFTER_MS), workParentOf(config));
    const uploads = createUploadsService(ctx, ctx.storage, options.processing);
    await uploads.startProcessing();
    log.info({ instanceId: uploads.instanceId, concurrency: config.processingConcurrency, database: db.dialect }, 'worker: processing videos');
    return {
      instanceId: uploads.instanceId,
      ctx,
      async stop(waitMs?: number) {
        await uploads.stopProcessing(waitMs);
        if (!options.db) await db.close();
      },
    };
  } catch (error) {
    if (!options.db) await db.close();
    throw error;
  }
}
