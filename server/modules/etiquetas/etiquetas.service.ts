import type { components } from '../../../contract/openapi.gen.ts';
import type { AppContext } from '../../context.ts';
import { listTags } from './etiquetas.repository.ts';

type Etiqueta = components['schemas']['Etiqueta'];

const spanish = new Intl.Collator('es', { sensitivity: 'base', numeric: true });

/** Every tag, sorted by name as Spanish readers expect (case and accents do not separate names). */
export async function listEtiquetas(ctx: Pick<AppContext, 'db'>): Promise<Etiqueta[]> {
  const tags = await listTags(ctx.db.kysely);
  return tags
    .map((t) => ({ id: t.id, nombre: t.nombre }))
    .sort((a, b) => spanish.compare(a.nombre, b.nombre) || a.id - b.id);
}
