import type { AppContext, ServerModule } from '../../context.ts';
import { getStatistics } from './statistics.service.ts';

/** The administrators' dashboard (openapi.yaml restricts it to them: `session: [admin]`). */
export function statisticsModule(ctx: AppContext): ServerModule {
  return {
    name: 'statistics',
    handlers: {
      getStatistics: async (request) => getStatistics(ctx, request.query),
    },
  };
}
