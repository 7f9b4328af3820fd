import type { ServiceAccount } from '../../core/tenancy/accounts.js';

/** What the setup feature hands on: a Set up button clicked (the form opens with its trigger), an account changed. */
export type SetupJob =
  | {
      kind: 'setup-open';
      userId: string;
      teamId?: string;
      triggerId: string;
      channelId?: string;
      responseUrl?: string;
    }
  /**
   * The tenant's service account was changed through the form (by `by`): its admins are told, and so is
   * each person whose own token it set aside.
   */
  | {
      kind: 'setup-changed';
      teamId: string;
      /** The workspace the form was sent from, whose members are looked through for the admins to tell. */
      workspaceId?: string;
      by: string;
      account: ServiceAccount;
      previous?: ServiceAccount;
      setAside: string[];
    };
