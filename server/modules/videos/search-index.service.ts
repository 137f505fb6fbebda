// What other modules use of the videos' search index: the videos of a tag, and re-indexing them after
// the tag's name changed or it went (in the caller's transaction), or after a bulk import; and the
// cues of a subtitle track, which the list's text search also reads (one track at a time, or the
// generator's many at once).
export { bulkLoadingCues, findVideoCues, insertCuesInBulk, refreshSearchIndex, replaceVideoCues, videoIdsWithTag, type CueColumns, type CueText } from './videos.repository.ts';
