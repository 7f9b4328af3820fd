/**
 * THE ONE LIST of what the gate guarantees, whichever surface asked (`surfaces.ts`), in the order of its
 * pipeline: masking, then authenticate (the person), getResource (what the operation touches), and
 * assertPermissions (may they, here, now). A leaf module: a refusal names the guarantee that refused it.
 *
 * `ownerRight`: losing it stops a schedule from running as its owner, so a scheduled run it refuses pauses
 * the schedule once (core/schedules/runner.ts) instead of failing at every run.
 */
export const GUARANTEES = [
  {
    id: 'masking',
    step: 'mask',
    ownerRight: false,
    says: 'A token-like value typed anywhere (a name, a reason, a description) is replaced before anything is sent, kept, audited, logged or shown; the person is told.',
  },
  {
    id: 'standing',
    step: 'authenticate',
    ownerRight: true,
    says: 'The person is a member of the Slack team in good standing: a deactivated or deleted account acts no more.',
  },
  {
    id: 'identity',
    step: 'authenticate',
    ownerRight: true,
    says: "The person's service identity can act: their own token when TSAI_REQUIRE_USER_TOKEN, never a token the service turned down.",
  },
  {
    id: 'team',
    step: 'getResource',
    ownerRight: false,
    says: 'What the operation touches (a followed flow, a request, a schedule, the tenant itself) belongs to the Slack team asking; one of another team is answered as unknown, to read or to decide, and a person of another team or organisation changes nothing of this one.',
  },
  {
    id: 'operator',
    step: 'assertPermissions',
    ownerRight: true,
    says: 'An operation that changes something is done only by an operator (TSAI_OPERATORS).',
  },
  {
    id: 'channel',
    step: 'assertPermissions',
    ownerRight: true,
    says: 'The bot acts only in the allowed channels (TSAI_ALLOWED_CHANNELS).',
  },
  {
    id: 'admin',
    step: 'assertPermissions',
    ownerRight: false,
    says: "A tenant's own service account is changed only by its admins, as Slack says at that moment: on an org-wide install an organisation admin or owner; on a workspace install that workspace's admins or owners, never a guest; whoever installed the app only while none is connected.",
  },
  {
    id: 'approval',
    step: 'assertPermissions',
    ownerRight: false,
    says: "A live start or stop runs only once approved (a request, or a schedule once) by the approvers of its model's workspace (the strictest rule when the bot cannot place it), never by its requester unless self-approval is on; one more condition, never instead of the others.",
  },
  {
    id: 'live-prechecks',
    step: 'assertPermissions',
    ownerRight: false,
    says: 'A live start or stop that would do nothing (a model the service said does not exist, one already in that state) is refused before anything is sent.',
  },
] as const;

export type GuaranteeId = (typeof GUARANTEES)[number]['id'];

export function guaranteeOf(id: GuaranteeId): (typeof GUARANTEES)[number] {
  return GUARANTEES.find((g) => g.id === id)!;
}
