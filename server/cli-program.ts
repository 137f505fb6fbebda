import { parseArgs } from 'node:util';
import { loadConfig } from './config.ts';
import { DEFAULT_DEMO_VIDEOS, describeDemo, loadDemo, MAX_DEMO_VIDEOS } from './media/demo.ts';
import { describeLibraryStreaming, makeLibraryStreaming, progressBar } from './media/hls.cli.ts';
import { describePlayable, makeLibraryPlayable } from './media/playable.cli.ts';
import { describeWebpThumbnails, makeWebpThumbnails } from './media/webp-thumbnails.cli.ts';
import { openDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrator.ts';
import { createMailer } from './mail/mailer.ts';
import type { AccountsContext } from './modules/accounts/accounts-context.ts';
import { AuditSinceError, formatAuditLog } from './modules/audit/audit.cli.ts';
import { DEFAULT_GENERATED_DAYS, describeGenerated, generate, GenerateError, GENERATE_LIMITS } from './modules/statistics/generate.ts';
import { createInvitation } from './modules/accounts/invitations.service.ts';
import { changeUser, findUserByName, listUsuarios, resetOtp } from './modules/accounts/users.service.ts';
import { loadContract } from './openapi/contract.ts';
import { bodyAjv } from './openapi/validation.ts';
import { HttpProblem } from './plugins/problems.ts';
import { loadSecrets } from './secrets.ts';

/**
 * The operator's command line: `npm run cli -- <command>` (server/cli.ts runs it on the process's
 * arguments, environment and output). It opens the configured database (the same environment
 * variables as the server) and uses the same services as the API.
 */

/** Where a run of the command line reads its settings and writes its output. */
export interface CliIo {
  env: NodeJS.ProcessEnv;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

const USAGE = `Contenido audiovisual TAO — administration

Usage: npm run cli -- <command> [arguments]

Commands:
  invite <email> [--admin] [--org NAME]  create an invitation, e-mail it (with SMTP_URL) and print its link
  users                                  list the users
  set-role <user> admin|user             change a user's role (ends their sessions)
  block <user>                           block a user (ends their sessions)
  unblock <user>                         unblock a user
  reset-otp <user>                       make the user set up the second factor again at next sign-in
  audit [--since DATE]                   print the record of administrative changes (who, when, what,
                                         before → after), oldest first; DATE: 2026-11-22 or a UTC instant
  demo [--videos N]                      load a demo library: N short generated videos (default 24), tags,
                                         users of two organisations, views, ratings, favourites
  generate --videos N --users M --views K [--ratings R] [--cues C] [--days D] [--seed S]
                                         bulk-fill the database for the statistics and benchmarks: N ready,
                                         visible videos (rows only: no media files, they show no picture and
                                         do not play), M users without a password (they cannot sign in), K
                                         views and R ratings (default 0) spread unevenly over ALL ready videos
                                         and users, in the last D days (default 90); --videos 0 --users 0 adds
                                         views to the library there is (the demo). C subtitle cues (default 0)
                                         per new video, Spanish sentences of 2–6 s (and as many in English for
                                         one video in 20), found by the list's search. Seed S (default 1): the
                                         same seed on the same database gives the same data
  playable [--check]                     rewrite the library's videos that not every browser plays (WebM,
                                         QuickTime, HEVC, 10-bit, the index at the end) as H.264/AAC MP4, as
                                         processing does for new uploads; --check only lists them
  hls                                    make the HLS renditions (240p–1080p, not above the source) and
                                         storyboards that ready videos lack; renditions already made are
                                         kept, so a stopped run goes on where it was
  webp-thumbnails                        make the WebP copies (the picture's, about half the bytes, and
                                         the cards' 400-pixel one) that thumbnails stored before lack
  help                                   show this help

The database is the one the server uses: DATABASE_URL (PostgreSQL) or DATA_DIR (SQLite).`;

/** Wrong command or arguments: the usage is shown and the exit code is 2. */
class UsageError extends Error {}
/** A refused operation (unknown user, a rule of the service): the exit code is 1. */
class CommandError extends Error {}

type Command = (ctx: AccountsContext, args: string[], io: CliIo) => Promise<string>;

function oneUserArgument(args: string[], command: string): string {
  if (args.length !== 1 || !args[0]) throw new UsageError(`${command} takes exactly one user name`);
  return args[0];
}

async function userNamed(ctx: AccountsContext, name: string) {
  try {
    return await findUserByName(ctx, name);
  } catch (error) {
    if (error instanceof HttpProblem && error.status === 404) throw new CommandError(`there is no user named "${name}"`);
    throw error;
  }
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/** The message of the error a log entry carries (`err`). */
function errorText(details: object): string {
  const error = (details as { err?: unknown }).err;
  return error instanceof Error ? error.message : String(error);
}

/** The same rule as POST /api/register-invitations: the request body schema of openapi.yaml. */
function checkInvitation(body: Record<string, unknown>): void {
  const schema = loadContract().operations.find((op) => op.operationId === 'createInvitation')?.body?.schema;
  if (!schema) throw new Error('openapi.yaml has no createInvitation body');
  const validate = bodyAjv.compile(schema);
  if (!validate(body)) {
    const error = validate.errors?.[0];
    const field = error?.instancePath.replace(/^\//, '') || 'invitation';
    throw new UsageError(`${field === 'organizacion' ? '--org' : field} ${error?.message ?? 'is invalid'}`);
  }
}

const commands: Record<string, Command> = {
  async invite(ctx, args, io) {
    const { values, positionals } = parseArgs({
      args,
      options: { admin: { type: 'boolean', default: false }, org: { type: 'string' } },
      allowPositionals: true,
      strict: true,
    });
    if (positionals.length !== 1) throw new UsageError('invite takes exactly one e-mail address');
    const body = { email: positionals[0]!, rol: values.admin ? ('admin' as const) : ('user' as const), ...(values.org !== undefined ? { organizacion: values.org } : {}) };
    checkInvitation(body);
    const log = { warn: (details: object, message: string) => io.stderr(`Warning: ${message}: ${errorText(details)}\n`) };
    const invitation = await createInvitation(ctx, { ...body, invitedBy: null }, { mailer: createMailer(ctx.config), log });
    const mailed = {
      sent: `E-mailed to ${invitation.email}.`,
      failed: 'The e-mail could not be sent; give the link to the person yourself.',
      'not-configured': 'Not e-mailed (SMTP_URL is not set); give the link to the person yourself.',
    }[invitation.emailDelivery];
    return `Invitation for ${invitation.email} (${body.rol}${values.org ? `, ${values.org}` : ''}), valid until ${invitation.expiresAt}:\n${invitation.link}\n${mailed}`;
  },

  async users(ctx, args) {
    if (args.length > 0) throw new UsageError('users takes no arguments');
    const users = await listUsuarios(ctx);
    if (users.length === 0) return 'No users yet.';
    return table(
      ['id', 'user', 'nombre', 'rol', 'organizacion', 'bloqueado', 'otp'],
      users.map((u) => [String(u.id), u.user, u.nombre, u.rol, u.organizacion ?? '', u.bloqueado ? 'yes' : 'no', u.otpState]),
    );
  },

  async 'set-role'(ctx, args) {
    const [name, role] = args;
    if (args.length !== 2 || !name || (role !== 'admin' && role !== 'user')) throw new UsageError('set-role takes a user name and admin or user');
    const user = await changeUser(ctx, null, (await userNamed(ctx, name)).id, { rol: role });
    return `${user.user} is now ${user.rol}.`;
  },

  async block(ctx, args) {
    const user = await changeUser(ctx, null, (await userNamed(ctx, oneUserArgument(args, 'block'))).id, { bloqueado: true });
    return `${user.user} is blocked.`;
  },

  async unblock(ctx, args) {
    const user = await changeUser(ctx, null, (await userNamed(ctx, oneUserArgument(args, 'unblock'))).id, { bloqueado: false });
    return `${user.user} is unblocked.`;
  },

  async demo(ctx, args, io) {
    const { values, positionals } = parseArgs({ args, options: { videos: { type: 'string' } }, allowPositionals: true, strict: true });
    if (positionals.length > 0) throw new UsageError('demo takes only --videos N');
    const videos = values.videos === undefined ? DEFAULT_DEMO_VIDEOS : Number(values.videos);
    if (!Number.isInteger(videos) || videos < 1 || videos > MAX_DEMO_VIDEOS) throw new UsageError(`--videos must be a whole number from 1 to ${MAX_DEMO_VIDEOS}`);
    io.stderr(`Loading the demo library (${videos} videos; ffmpeg makes the missing ones)…\n`);
    const report = await loadDemo(ctx, { videos, onProgress: (line) => io.stderr(`  ${line}\n`) });
    return describeDemo(report, ctx.config);
  },

  async generate(ctx, args, io) {
    const { values, positionals } = parseArgs({
      args,
      options: {
        videos: { type: 'string' },
        users: { type: 'string' },
        views: { type: 'string' },
        ratings: { type: 'string' },
        cues: { type: 'string' },
        days: { type: 'string' },
        seed: { type: 'string' },
      },
      allowPositionals: true,
      strict: true,
    });
    if (positionals.length > 0) throw new UsageError('generate takes only options: --videos N --users M --views K [--ratings R] [--cues C] [--days D] [--seed S]');
    const whole = (name: string, text: string | undefined, min: number, max: number, fallback?: number): number => {
      if (text === undefined) {
        if (fallback === undefined) throw new UsageError(`generate needs --${name}`);
        return fallback;
      }
      const n = /^\d+$/.test(text) ? Number(text) : Number.NaN;
      if (!Number.isSafeInteger(n) || n < min || n > max) throw new UsageError(`--${name} must be a whole number from ${min} to ${max}`);
      return n;
    };
    const options = {
      videos: whole('videos', values.videos, 0, GENERATE_LIMITS.videos),
      users: whole('users', values.users, 0, GENERATE_LIMITS.users),
      views: whole('views', values.views, 0, GENERATE_LIMITS.views),
      ratings: whole('ratings', values.ratings, 0, GENERATE_LIMITS.ratings, 0),
      cues: whole('cues', values.cues, 0, GENERATE_LIMITS.cues, 0),
      days: whole('days', values.days, 1, GENERATE_LIMITS.days, DEFAULT_GENERATED_DAYS),
      seed: whole('seed', values.seed, 0, 2 ** 32 - 1, 1),
    };
    try {
      const report = await generate(ctx.db, { ...options, onProgress: (line) => io.stderr(`  ${line}\n`) });
      return describeGenerated(report);
    } catch (error) {
      if (error instanceof GenerateError) throw new CommandError(error.message);
      throw error;
    }
  },

  async playable(ctx, args, io) {
    const { values, positionals } = parseArgs({ args, options: { check: { type: 'boolean', default: false } }, allowPositionals: true, strict: true });
    if (positionals.length > 0) throw new UsageError('playable takes only --check');
    const report = await makeLibraryPlayable(ctx, { check: values.check, line: (text) => io.stderr(`  ${text}\n`) });
    const summary = describePlayable(report, values.check);
    if (report.failed > 0) throw new CommandError(summary);
    return summary;
  },

  async hls(ctx, args, io) {
    if (args.length > 0) throw new UsageError('hls takes no arguments');
    let drawn = false;
    const report = await makeLibraryStreaming(ctx, {
      line: (text) => {
        io.stderr(`${drawn ? '\n' : ''}  ${text}\n`);
        drawn = false;
      },
      progress: (fraction, what) => {
        io.stderr(progressBar(fraction, what));
        drawn = true;
      },
    });
    if (drawn) io.stderr('\n');
    const summary = describeLibraryStreaming(report);
    if (report.failed > 0) throw new CommandError(summary);
    return summary;
  },

  async 'webp-thumbnails'(ctx, args, io) {
    if (args.length > 0) throw new UsageError('webp-thumbnails takes no arguments');
    const report = await makeWebpThumbnails(ctx, { line: (text) => io.stderr(`  ${text}\n`) });
    const summary = describeWebpThumbnails(report);
    if (report.failed > 0) throw new CommandError(summary);
    return summary;
  },

  async audit(ctx, args) {
    const { values, positionals } = parseArgs({ args, options: { since: { type: 'string' } }, allowPositionals: true, strict: true });
    if (positionals.length > 0) throw new UsageError('audit takes only --since DATE');
    try {
      return await formatAuditLog(ctx, { since: values.since });
    } catch (error) {
      if (error instanceof AuditSinceError) throw new UsageError(error.message);
      throw error;
    }
  },

  async 'reset-otp'(ctx, args) {
    const user = await resetOtp(ctx, (await userNamed(ctx, oneUserArgument(args, 'reset-otp'))).id);
    return `${user.user} will set up the second factor again at the next sign-in.`;
  },
};

/** Runs one command; answers the exit code (0 done, 1 refused, 2 wrong command or arguments). */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [name, ...args] = argv;
  if (name === 'help' || name === '--help' || name === '-h') {
    io.stdout(`${USAGE}\n`);
    return 0;
  }
  const command = name === undefined ? undefined : commands[name];
  if (!command) {
    io.stderr(`${name === undefined ? 'No command given.' : `Unknown command "${name}".`}\n\n${USAGE}\n`);
    return 2;
  }
  const config = loadConfig(io.env);
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await migrateToLatest(db);
    const output = await command({ config, db, secrets: loadSecrets(config) }, args, io);
    io.stdout(`${output}\n`);
    return 0;
  } catch (error) {
    if (error instanceof UsageError || (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'))) {
      io.stderr(`Error: ${error.message}\n\n${USAGE}\n`);
      return 2;
    }
    if (error instanceof CommandError) {
      io.stderr(`Error: ${error.message}\n`);
      return 1;
    }
    if (error instanceof HttpProblem) {
      io.stderr(`Error: ${error.detail ?? error.type}\n`);
      return 1;
    }
    throw error;
  } finally {
    await db.close();
  }
}
