/** Who a name is given for when the person's name is not known: never their ID. */
export const NEUTRAL_NAME = 'someone';

/** A Slack user or bot ID (`U0ALICE`, `W…`, `B…`): what a flow name never shows in a person's place. */
const SLACK_ID = /^[UWB][A-Z0-9]{5,}$/;

/** The name to show for a person: their display name, or the neutral word when there is none to use. */
export function personName(name: string | undefined): string {
  const n = name?.trim().replace(/^@/, '');
  return n && !SLACK_ID.test(n) ? `@${n}` : NEUTRAL_NAME;
}

/** Default flow and dataspec names a person recognises: `learn by @alice 2026-11-22 09:14Z`. */
export function defaultName(operation: string, userName: string | undefined, now: Date): string {
  const iso = now.toISOString(); // 2026-11-22T09:14:05.123Z
  return `${operation} by ${personName(userName)} ${iso.slice(0, 10)} ${iso.slice(11, 16)}Z`;
}

/**
 * How the service names a new anomaly model when no name is given, in words: its own pattern
 * (`{{workspaceName}}/{{modelType}}/M[{{index}}]`) is template text, which nobody should have to read.
 */
export const SERVICE_MODEL_NAMING =
  "the workspace's name, then anomaly, then the next model number, as in Pump station A/anomaly/M[2]";
