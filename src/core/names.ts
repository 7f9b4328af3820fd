/** Default flow and dataspec names a person recognises: `learn by @alice 2026-11-22 09:14Z`. */
export function defaultName(operation: string, userName: string, now: Date): string {
  const iso = now.toISOString(); // 2026-11-22T09:14:05.123Z
  const who = userName.startsWith('@') ? userName : `@${userName}`;
  return `${operation} by ${who} ${iso.slice(0, 10)} ${iso.slice(11, 16)}Z`;
}
