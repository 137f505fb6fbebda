import type { AppContext, ServerModule } from '../../context.ts';
import { auditActorOf } from '../audit/audit.service.ts';
import { createEtiqueta, deleteEtiqueta, listEtiquetas, patchEtiqueta } from './etiquetas.service.ts';

/** Tags. Reading them is open to every signed-in user; creating, renaming and deleting to administrators (openapi.yaml). */
export function etiquetasModule(ctx: AppContext): ServerModule {
  return {
    handlers: {
      listEtiquetas: async () => listEtiquetas(ctx),
      createEtiqueta: async (request, reply) => {
        const tag = await createEtiqueta(ctx, auditActorOf(request), request.body);
        reply.code(201);
        return tag;
      },
      patchEtiqueta: async (request) => patchEtiqueta(ctx, auditActorOf(request), request.params.id, request.body),
      deleteEtiqueta: async (request, reply) => {
        await deleteEtiqueta(ctx, auditActorOf(request), request.params.id);
        reply.code(204).send();
      },
    },
  };
}
