import { LRUCache } from 'lru-cache';
import type { FastifyBaseLogger, FastifyBodyParser, FastifyContentTypeParser, FastifyPluginAsync } from 'fastify';
import type { Config } from './config.ts';
import type { Db } from './db/database.ts';
import type { MediaJobs } from './media/ffmpeg.ts';
import type { Handlers, OperationId } from './openapi/handlers.ts';
import type { Secrets } from './secrets.ts';
import type { SecuritySchemes } from './plugins/security.ts';
import type { Storage } from './storage/storage.ts';

/** What every server module is built from. */
export interface AppContext {
  config: Config;
  db: Db;
  secrets: Secrets;
  log: FastifyBaseLogger;
  /** the media storage, opened once (one S3 client and its connections) and shared by the modules */
  storage: Storage;
  /** the slots media programs (ffmpeg) wait for */
  media: MediaJobs;
  /**
   * The one cache of the read path: pages of text searches (ranked ids and total), keyed by the
   * generations they were read at (docs/decisions/0064-text-search-page-cache.md).
   */
  searchPages: SearchPages;
}

/** Ranked ids and totals of text-search pages; only the videos module reads and fills it. */
export type SearchPages = LRUCache<string, { ids: readonly number[]; total: number }>;

/** How many search pages an instance remembers: some hundred kilobytes at most. */
export function createSearchPages(max = 2000): SearchPages {
  return new LRUCache({ max });
}

/**
 * A body parser a module needs for the content types its operations accept (Fastify itself reads
 * `application/json`; every `+json` type of openapi.yaml is read as JSON too). `contentType` is an
 * exact media type or a RegExp tested on the Content-Type header.
 */
export type ContentTypeParserSpec =
  | { contentType: string | RegExp; parseAs: 'string'; parser: FastifyBodyParser<string> }
  | { contentType: string | RegExp; parseAs: 'buffer'; parser: FastifyBodyParser<Buffer> }
  | { contentType: string | RegExp; parseAs?: undefined; parser: FastifyContentTypeParser };

/**
 * A server module: the handlers of its operations and what they need from the server. buildApp
 * registers each module's operations in a scope of their own, where its content-type parsers and its
 * plugin apply (and nowhere else).
 */
export interface ServerModule {
  /** names the module in start-up errors */
  name?: string;
  handlers: Handlers;
  /** security schemes of openapi.yaml the module implements */
  security?: Partial<SecuritySchemes>;
  /** body limits (bytes) of its operations, where the server-wide BODY_LIMIT does not fit */
  bodyLimits?: Partial<Record<OperationId, number>>;
  /** parsers of the request bodies its operations accept (see `streamedBody` for files sent as they are) */
  contentTypeParsers?: ContentTypeParserSpec[];
  /** run inside the module's scope before its routes: hooks, decorators, plugins of its own */
  plugin?: FastifyPluginAsync;
}
