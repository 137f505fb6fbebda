/**
 * A video's duration (seconds) as a card shows it: m:ss, or h:mm:ss from one hour on. Fractions of
 * a second are dropped (a 59.9 s clip reads 0:59); a negative or missing value reads 0:00.
 */
export function formatDuration(seconds: number | null | undefined): string {
  const total = Number.isFinite(seconds) && (seconds as number) > 0 ? Math.floor(seconds as number) : 0;
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const secs = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${secs}` : `${minutes}:${secs}`;
}
