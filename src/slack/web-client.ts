import { countRetry } from '../metrics/metrics.js';

/** Web API calls on interactive paths fail fast: a 429 or an outage must not stall a reply for minutes. */
export const WEB_CLIENT_OPTIONS = {
  retryConfig: {
    retries: 1,
    factor: 1,
    minTimeout: 200,
    maxTimeout: 500,
    // Called after each failed attempt; one with retries left is tried again.
    onFailedAttempt: (e: { retriesLeft: number }) => {
      if (e.retriesLeft > 0) countRetry('slack');
    },
  },
  rejectRateLimitedCalls: true,
  timeout: 10_000,
};

/** The client options for a Slack config: the above, plus `SLACK_API_URL` when set (local Slack, tests). */
export function webClientOptions(apiUrl: string | undefined) {
  return { ...WEB_CLIENT_OPTIONS, ...(apiUrl ? { slackApiUrl: apiUrl } : {}) };
}
