/** What a click on a reading's button carries: the reading's key, and who clicked. */
interface Clicked {
  key: string;
  userId: string;
  teamId?: string;
  triggerId: string;
  responseUrl?: string;
}

/**
 * A button under a plain request's reading, clicked: "Run it" (`plain-run`), or "Not what I meant"
 * (`plain-other`). `key` names the reading the bot kept; the clicker is who acts.
 */
export type PlainJob =
  | (Clicked & {
      kind: 'plain-run';
      /** What it runs leaves arguments to fill in: the click's trigger opens its form. */
      form?: true;
    })
  | (Clicked & { kind: 'plain-other' });
