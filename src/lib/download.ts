/**
 * Saves `content` as a file named `name` in the browser's downloads: a Blob behind an object URL,
 * clicked through a hidden `<a download>` (the one way a page can name the file it saves). Text is
 * written as UTF-8; a leading byte-order mark in `content` is kept (the statistics' CSV starts
 * with one so spreadsheet programs read the accents).
 */
export function downloadFile(name: string, content: string, type = 'text/csv;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.style.display = 'none';
  document.body.append(link);
  try {
    link.click();
  } finally {
    link.remove();
    // Revoked after the click has been handled: some browsers read the URL asynchronously.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
}
