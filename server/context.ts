import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { Db } from './db/database.ts';
import type { Handlers } from './openapi/handlers.ts';
import type { Secrets } from './secrets.ts';
import type { SecuritySchemes } from './plugins/security.ts';

/** What every server module is built from. */
export interface AppContext {
  config: Config;
  db: Db;
  secrets: Secrets;
  log: FastifyBaseLogger;
}

/** A server module: the handlers of its operations and, optionally, security schemes it implements. */
export interface ServerModule {
  handlers: Handlers;
  security?: Partial<SecuritySchemes>;
}
