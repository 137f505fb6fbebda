import type { components } from '../../../contract/openapi.gen.ts';
import type { AppContext } from '../../context.ts';
import { now } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/database-errors.ts';
import type { BodyOf } from '../../openapi/handlers.ts';
import { HttpProblem, invalidField, type FieldName } from '../../plugins/problems.ts';
import { recordAudit, type AuditActor } from '../audit/audit.service.ts';
import { refreshSearchIndex, videoIdsWithTag } from '../videos/search-index.service.ts';
import { deleteTagRow, findTagById, findTagByKey, insertTag, listTags, renameTag, tagKey } from './etiquetas.repository.ts';

// What the videos module uses of the tags: find a video's tags by id, create the ones an import names.
export { ensureTags, findTagsByIds } from './etiquetas.repository.ts';

type Etiqueta = components['schemas']['Etiqueta'];
type EtiquetaPatch = BodyOf<'patchEtiqueta'>;
type TagsContext = Pick<AppContext, 'db'>;

/** R-TAG-2: a tag name has at least 3 characters; the column holds 50. Counted without the spaces at either end. */
export const TAG_NAME_LIMITS = { min: 3, max: 50 } as const;

const spanish = new Intl.Collator('es', { sensitivity: 'base', numeric: true });

/** Every tag, sorted by name as Spanish readers expect (case and accents do not separate names). */
export async function listEtiquetas(ctx: TagsContext): Promise<Etiqueta[]> {
  const tags = await listTags(ctx.db.kysely);
  return tags
    .map((t) => ({ id: t.id, nombre: t.nombre }))
    .sort((a, b) => spanish.compare(a.nombre, b.nombre) || a.id - b.id);
}

/** The trimmed name, or a 400 `validation-error` naming `field` (blank, shorter than 3, longer than 50). */
export function checkTagName(value: string, field: FieldName): string {
  const nombre = value.trim();
  const length = [...nombre].length;
  if (length < TAG_NAME_LIMITS.min || length > TAG_NAME_LIMITS.max) {
    const message = nombre === '' ? 'is required' : `must have ${TAG_NAME_LIMITS.min} to ${TAG_NAME_LIMITS.max} characters (not counting spaces at either end)`;
    throw invalidField(field, message);
  }
  return nombre;
}

const taken = (nombre: string, existing: string) =>
  new HttpProblem(409, 'conflict', `the tag name "${nombre}" is taken: a tag named "${existing}" exists (names are unique ignoring case and accents)`);

const tagNotFound = () => new HttpProblem(404, 'resource-not-found', 'no such tag');

/** Runs a write; a unique violation (another request took the name meanwhile) is the same 409, naming that tag. */
async function uniquely<T>(ctx: TagsContext, nombre: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const existing = await findTagByKey(ctx.db.kysely, tagKey(nombre));
    throw taken(nombre, existing?.nombre ?? nombre);
  }
}

/**
 * Creates a tag (POST /api/etiquetas): the name trimmed and checked (400), unique ignoring case and
 * accents (409 naming the existing tag). The audit row is written in the same transaction.
 */
export async function createEtiqueta(ctx: TagsContext, actor: AuditActor, body: BodyOf<'createEtiqueta'>): Promise<Etiqueta> {
  const nombre = checkTagName(body.nombre, 'body.nombre');
  const key = tagKey(nombre);
  const at = now();
  return uniquely(ctx, nombre, () =>
    ctx.db.kysely.transaction().execute(async (trx) => {
      const existing = await findTagByKey(trx, key);
      if (existing) throw taken(nombre, existing.nombre);
      const tag = await insertTag(trx, { nombre, nombre_key: key, created_at: at });
      await recordAudit(trx, { actor, action: 'tag.created', subjectType: 'tag', subjectId: tag.id, after: { nombre }, at });
      return { id: tag.id, nombre: tag.nombre };
    }),
  );
}

/**
 * Renames a tag (PATCH /api/etiquetas/{id}, one replace of /nombre): 404 unknown, 400 bad name, 409
 * when another tag has the name ignoring case and accents (its own name in other case or accents is
 * fine). The videos of the tag are re-indexed in the same transaction, so search finds them by the new
 * name at once; the audit row holds the name before and after. Renaming to the same name changes nothing.
 */
export async function patchEtiqueta(ctx: TagsContext, actor: AuditActor, id: number, operations: EtiquetaPatch): Promise<Etiqueta> {
  const nombre = checkTagName(operations[0]!.value, 'body.0.value');
  const key = tagKey(nombre);
  const { kysely, dialect } = ctx.db;
  const at = now();
  return uniquely(ctx, nombre, () =>
    kysely.transaction().execute(async (trx) => {
      const tag = await findTagById(trx, id);
      if (!tag) throw tagNotFound();
      if (tag.nombre === nombre) return { id: tag.id, nombre: tag.nombre };
      const existing = await findTagByKey(trx, key);
      if (existing && existing.id !== id) throw taken(nombre, existing.nombre);
      await renameTag(trx, id, nombre, key);
      await refreshSearchIndex(trx, dialect, await videoIdsWithTag(trx, id));
      await recordAudit(trx, { actor, action: 'tag.renamed', subjectType: 'tag', subjectId: id, before: { nombre: tag.nombre }, after: { nombre }, at });
      return { id, nombre };
    }),
  );
}

/**
 * Deletes a tag (DELETE /api/etiquetas/{id}): 404 unknown. Its videos lose it in the same transaction
 * (the foreign key cascades) and are re-indexed; the audit row holds its name and how many videos had it.
 */
export async function deleteEtiqueta(ctx: TagsContext, actor: AuditActor, id: number): Promise<void> {
  const { kysely, dialect } = ctx.db;
  const at = now();
  await kysely.transaction().execute(async (trx) => {
    const tag = await findTagById(trx, id);
    if (!tag) throw tagNotFound();
    const videoIds = await videoIdsWithTag(trx, id);
    await deleteTagRow(trx, id);
    await refreshSearchIndex(trx, dialect, videoIds);
    await recordAudit(trx, {
      actor,
      action: 'tag.deleted',
      subjectType: 'tag',
      subjectId: id,
      before: { nombre: tag.nombre, videos: videoIds },
      detail: `removed from ${videoIds.length} video${videoIds.length === 1 ? '' : 's'}`,
      at,
    });
  });
}
