import type { AppContext, ServerModule } from '../../context.ts';
import { listEtiquetas } from './etiquetas.service.ts';

/** Tags. Reading them is open to every signed-in user; creating, renaming and deleting come with the tags issue. */
export function etiquetasModule(ctx: AppContext): ServerModule {
  return {
    handlers: {
      listEtiquetas: async () => listEtiquetas(ctx),
    },
  };
}
