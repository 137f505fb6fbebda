import { loadConfig } from './config.ts';
import { startProcessingWorker } from './processing-worker.ts';

/**
 * `npm run worker`: processes uploaded videos for the web instances sharing its database and
 * storage (started with PROCESSING=off), without serving HTTP. SIGTERM or SIGINT stops it cleanly:
 * it waits up to 5 s for its jobs, then gives up their leases so another worker takes them at once.
 */
async function main(): Promise<void> {
  const worker = await startProcessingWorker({ config: loadConfig() });
  const { log } = worker.ctx;
  // The worker's own timers (polling, lease renewals) do not hold the process open: this does, until a signal.
  const keepAlive = setInterval(() => undefined, 3_600_000);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    clearInterval(keepAlive);
    log.info({ signal }, 'worker: stopping; unfinished videos are left to another worker');
    const timer = setTimeout(() => {
      log.error('worker: stopping took longer than 10 s; exiting');
      process.exit(1);
    }, 10_000);
    timer.unref();
    try {
      await worker.stop();
      process.exit(0);
    } catch (error) {
      log.error({ err: error }, 'worker: stopping failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  process.stderr.write(`Could not start the worker: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
