import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { firstAdministratorLink } from './modules/accounts/bootstrap.ts';

/** Starts the product: migrates, serves /api and the SPA, prints the first-administrator link. */
async function main(): Promise<void> {
  const config = loadConfig();
  const app = await buildApp({ config });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    const timer = setTimeout(() => {
      app.log.error('shutdown took longer than 10 s; exiting');
      process.exit(1);
    }, 10_000);
    timer.unref();
    try {
      await app.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  const link = await firstAdministratorLink(app.ctx);
  const libraryEmpty = (await app.ctx.db.kysely.selectFrom('videos').select('id').limit(1).executeTakeFirst()) === undefined;
  const banner = [
    '',
    `  Contenido audiovisual TAO is running at ${config.publicUrl}`,
    `  Database: ${app.ctx.db.dialect}${app.ctx.db.dialect === 'sqlite' ? ` (${config.dataDir})` : ''}`,
    // several instances on one database must sign with the same keys (docs/DEPLOY.md)
    ...(app.ctx.db.dialect === 'postgres' && (!config.tokenSecret || !config.urlSigningSecret)
      ? ['  Signing keys: from DATA_DIR/secrets.json. To run several instances, give each the same TOKEN_SECRET and URL_SIGNING_SECRET.']
      : []),
    ...(link
      ? ['', '  No administrator exists yet. Open this one-time link to create the first administrator:', `  ${link}`]
      : []),
    ...(libraryEmpty ? ['', '  The library has no videos yet. To load demo videos, users and ratings:', '  npm run cli -- demo'] : []),
    '',
  ].join('\n');
  process.stdout.write(`${banner}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`Could not start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
