/**
 * A move that cannot or must not go on, said for the person running it: what is wrong, and what to do
 * next. The command prints both and nothing else (no stack), and exits 1.
 */
export class MoveRefused extends Error {
  readonly what: string;

  constructor(
    what: string,
    readonly next: string,
  ) {
    super(`${what} ${next}`);
    this.what = what.charAt(0).toUpperCase() + what.slice(1);
    this.name = 'MoveRefused';
  }
}
