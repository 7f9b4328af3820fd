/** Where a person asked from, so the answer reaches them there. */
interface Asked {
  userId: string;
  teamId?: string;
  channelId?: string;
  responseUrl?: string;
}

/** What the identity feature hands on after its acknowledgements. Never a token. */
export type IdentityJob =
  /** A Connect button: open the form (its trigger lasts 3 seconds). */
  | ({ kind: 'identity-open'; triggerId: string } & Asked)
  /** A Disconnect button. */
  | ({ kind: 'identity-disconnect' } & Asked)
  /** The form was sent and the token kept: tell them where they asked, and show it in their Home. */
  | ({ kind: 'identity-connected' } & Asked);
