/** What a click on a reading's button carries: the reading's ID, and who clicked where. */
interface Clicked {
  id: string;
  userId: string;
  teamId?: string;
  triggerId: string;
  responseUrl?: string;
}

/**
 * A button under a plain request's reading, clicked: "Run it" (`plain-run`), or "Not what I meant"
 * (`plain-other`). `id` names the reading the bot kept in the clicker's tenant; the clicker is who acts.
 */
export type PlainJob =
  | (Clicked & {
      kind: 'plain-run';
      /** What it runs leaves arguments to fill in: the click's trigger opens its form. */
      form?: true;
    })
  | (Clicked & { kind: 'plain-other' });
