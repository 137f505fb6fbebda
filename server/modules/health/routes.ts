import { sql } from 'kysely';
import type { AppContext, ServerModule } from '../../context.ts';
import { HttpProblem } from '../../plugins/problems.ts';
import { version } from '../../version.ts';

export function healthModule(ctx: AppContext): ServerModule {
  return {
    name: 'health',
    handlers: {
      getHealth: async () => {
        try {
          await sql`select 1`.execute(ctx.db.kysely);
        } catch (error) {
          ctx.log.error({ err: error }, 'health: database unreachable');
          throw new HttpProblem(503, 'service-unavailable', 'the database does not answer');
        }
        return { status: 'ok' as const, version, database: ctx.db.dialect };
      },
    },
  };
}
