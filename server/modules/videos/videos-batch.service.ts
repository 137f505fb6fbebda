import type { components } from '../../../contract/openapi.gen.ts';
import type { AppContext } from '../../context.ts';
import { now } from '../../db/database.ts';
import type { BodyOf } from '../../openapi/handlers.ts';
import { invalidField, type FieldName } from '../../plugins/problems.ts';
import type { Storage } from '../../storage/storage.ts';
import { findTagsByIds } from '../etiquetas/etiquetas.service.ts';
import { deleteVideoIn } from './videos-manage.service.ts';
import { findTagsOfVideos, lockReadyVideos, refreshSearchIndex, setVideoTags, updateVideoRow, type Executor, type VideoRow } from './videos.repository.ts';
import { auditActor, auditEdit, notFound, type Caller } from './videos.service.ts';

/**
 * The administrators' batch operations over the videos of a selection (docs/decisions/0127-batch-video-operations.md):
 * tags added or removed and the visibility set (PATCH /api/videos), or the videos deleted
 * (DELETE /api/videos). R-ADM-10 … R-ADM-12, R-API-4, R-API-5.
 */

export type VideosBatchPatch = BodyOf<'patchVideos'>;
export type VideosBatchResult = components['schemas']['VideosBatchResult'];
type Outcome = VideosBatchResult['resultados'][number];

type BatchContext = Pick<AppContext, 'db' | 'log'>;

/** The largest id a video can have (the columns are 32-bit integers). */
const MAX_ID = 2147483647;
/** The most tags a video carries (EtiquetaIds in openapi.yaml: the edit dialog sends them all back). */
const MAX_TAGS = 50;

/** An operation of a batch patch, read: the tag it adds or removes, or the visibility it sets. */
type Operation = { kind: 'add' | 'remove'; tagId: number; field: FieldName } | { kind: 'visibility'; visible: boolean };

/** The operations in order; the tag of a `remove` from its path (`/etiquetas/7`). */
function readOperations(body: VideosBatchPatch): Operation[] {
  return body.operaciones.map((op, index): Operation => {
    switch (op.op) {
      case 'add':
        return { kind: 'add', tagId: op.value, field: `body.operaciones.${index}.value` };
      case 'remove':
        return { kind: 'remove', tagId: Number(op.path.slice('/etiquetas/'.length)), field: `body.operaciones.${index}.path` };
      case 'replace':
        return { kind: 'visibility', visible: op.value };
    }
  });
}

/** 400 naming the first operation whose tag does not exist (nothing is applied). */
async function checkTags(db: Executor, operations: Operation[]): Promise<void> {
  const named = operations.flatMap((op) => (op.kind === 'visibility' ? [] : [op]));
  // an id past the column's range names no tag (and PostgreSQL would refuse to compare it)
  const known = new Set((await findTagsByIds(db, [...new Set(named.map((op) => op.tagId).filter((id) => id <= MAX_ID))])).map((t) => t.id));
  const unknown = named.find((op) => !known.has(op.tagId));
  if (unknown) throw invalidField(unknown.field, `no tag with id ${unknown.tagId}`);
}

const missing = (id: number): Outcome => ({ id, status: 404, type: 'resource-not-found', detail: notFound().message });

/**
 * Applies the operations, in order, to every video of `ids` that exists, in one transaction: tags as
 * a set keyed by id (adding one a video has, or removing one it lacks, changes nothing), the
 * visibility replaced. An unknown tag, or a video left with more than 50 tags, refuses the whole
 * batch (400 naming the operation, or `body.operaciones`); an id with
 * no video is answered 404 and the others are still applied. Each video that changed is audited
 * (`video.edited`, as patchVideo does), its search entry rewritten when its tags changed (the cached
 * list pages go with the library generation, which the triggers also bump for a visibility change).
 * Answers the outcome per id, in the order of `ids`.
 */
export async function patchVideos(ctx: BatchContext, caller: Caller, body: VideosBatchPatch): Promise<VideosBatchResult> {
  const { kysely, dialect } = ctx.db;
  const operations = readOperations(body);
  const at = now();
  const applied = await kysely.transaction().execute(async (trx) => {
    // checked in the transaction: a tag deleted meanwhile is refused, not a broken reference
    await checkTags(trx, operations);
    const rows = await lockReadyVideos(trx, dialect, body.ids);
    const tagsOf = await findTagsOfVideos(
      trx,
      rows.map((row) => row.id),
    );
    const retagged: number[] = [];
    for (const row of rows) {
      const before = (tagsOf.get(row.id) ?? []).map((t) => t.id);
      const tags = new Set(before);
      let visible = row.is_visible === 1;
      for (const op of operations) {
        if (op.kind === 'visibility') visible = op.visible;
        else if (op.kind === 'add') tags.add(op.tagId);
        else tags.delete(op.tagId);
      }
      const tagIds = [...tags];
      if (tagIds.length > MAX_TAGS) throw invalidField('body.operaciones', `video ${row.id} would carry ${tagIds.length} tags (at most ${MAX_TAGS})`);
      const tagsChanged = tagIds.length !== before.length || tagIds.some((id) => !before.includes(id));
      const changes: Parameters<typeof updateVideoRow>[2] = visible !== (row.is_visible === 1) ? { is_visible: visible ? 1 : 0 } : {};
      if (!tagsChanged && changes.is_visible === undefined) continue;
      await updateVideoRow(trx, row.id, { ...changes, updated_at: at });
      if (tagsChanged) {
        await setVideoTags(trx, row.id, tagIds);
        retagged.push(row.id);
      }
      await auditEdit(trx, caller, row.id, row, before, { changes, ...(tagsChanged ? { tagIds } : {}), thumbnail: false }, at);
    }
    await refreshSearchIndex(trx, dialect, retagged);
    return new Set(rows.map((row) => row.id));
  });
  return { resultados: body.ids.map((id) => (applied.has(id) ? { id, status: 200 } : missing(id))) };
}

/** The ids of a batch delete's query (`3,7,12`): 400 `query.ids` for an id past the range or repeated. */
export function parseIdList(text: string, field: FieldName): number[] {
  const ids = text.split(',').map(Number);
  const tooLarge = ids.find((id) => id > MAX_ID);
  if (tooLarge !== undefined) throw invalidField(field, `${tooLarge} is not a video id (at most ${MAX_ID})`);
  const repeated = ids.find((id, i) => ids.indexOf(id) !== i);
  if (repeated !== undefined) throw invalidField(field, `names ${repeated} more than once`);
  return ids;
}

/**
 * Deletes the videos of `ids` (DELETE /api/videos) as deleteVideo deletes one, in one transaction
 * (in id order, so that concurrent batches never deadlock), each audited (`video.deleted`); then
 * the files of each, a failure logged. Answers 204 or 404 per id, in the order of `ids`.
 */
export async function deleteVideos(ctx: BatchContext, storage: Storage, caller: Caller, idsText: string): Promise<VideosBatchResult> {
  const { kysely, dialect } = ctx.db;
  const ids = parseIdList(idsText, 'query.ids');
  const actor = auditActor(caller);
  const deleted = await kysely.transaction().execute(async (trx) => {
    const rows = new Map<number, VideoRow>();
    for (const id of [...ids].sort((x, y) => x - y)) {
      const row = await deleteVideoIn(trx, dialect, id, actor);
      if (row) rows.set(id, row);
    }
    return rows;
  });
  for (const [id, row] of deleted) {
    try {
      await storage.deleteAsset(row.id_externo);
    } catch (error) {
      ctx.log.warn({ err: error, videoId: id, assetId: row.id_externo }, 'videos: the files of a deleted video could not be deleted');
    }
  }
  return { resultados: ids.map((id) => (deleted.has(id) ? { id, status: 204 } : missing(id))) };
}
