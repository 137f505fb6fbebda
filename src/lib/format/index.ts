export { DESCRIPTION_TAGS, escapeHtml, formatDescription } from './description.ts';
export { formatDuration } from './duration.ts';
export { formatUploadDate } from './upload-date.ts';
