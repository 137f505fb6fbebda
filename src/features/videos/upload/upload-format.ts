/** How the upload wizard writes sizes and rates (Spanish number format: '3,2 MB/s'). */

const KB = 1024;
const MB = 1024 * KB;
const GB = 1024 * MB;

const number = new Intl.NumberFormat('es', { maximumFractionDigits: 1, minimumFractionDigits: 0 });

/** '512 B', '12,5 KB', '3,2 MB', '1,4 GB'. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '0 B';
  if (bytes < KB) return `${Math.round(bytes)} B`;
  if (bytes < MB) return `${number.format(bytes / KB)} KB`;
  if (bytes < GB) return `${number.format(bytes / MB)} MB`;
  return `${number.format(bytes / GB)} GB`;
}

/** '3,2 MB/s'; empty while no rate is known. */
export function formatRate(bytesPerSecond: number): string {
  return bytesPerSecond > 0 ? `${formatBytes(bytesPerSecond)}/s` : '';
}
