import type { AppContext, ServerModule } from '../../context.ts';
import { listAudit } from './audit.service.ts';

/** The audit log: administrators read it a page at a time (the changes are written by the modules that make them). */
export function auditModule(ctx: AppContext): ServerModule {
  return {
    handlers: {
      listAudit: async (request, reply) => {
        const { entries, total } = await listAudit(ctx, request.query);
        reply.header('X-Total-Count', String(total));
        return entries;
      },
    },
  };
}
