// What other modules use of the videos' search index: the videos of a tag, and re-indexing them after
// the tag's name changed or it went (in the caller's transaction), or after a bulk import.
export { refreshSearchIndex, videoIdsWithTag } from './videos.repository.ts';
