import type { webApi } from '@slack/bolt';
import { countRetry } from '../metrics/metrics.js';
import { inSpan, tracingOn } from '../tracing/trace.js';
import { webApiFetch } from './web-fetch.js';

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
  fetch: webApiFetch,
};

/** The client options for a Slack config: the above, plus `SLACK_API_URL` when set (local Slack, tests). */
export function webClientOptions(apiUrl: string | undefined) {
  return { ...WEB_CLIENT_OPTIONS, ...(apiUrl ? { slackApiUrl: apiUrl } : {}) };
}

/**
 * With tracing on, each Web API call made for a request is a span of its trace (`slack chat.postMessage`),
 * failed with Slack's error code when Slack refuses it. Off, the client as it is.
 */
export function tracedWebClient(Base: typeof webApi.WebClient): typeof webApi.WebClient {
  if (!tracingOn()) return Base;
  return class extends Base {
    override apiCall(method: string, options?: Record<string, unknown>) {
      return inSpan(
        `slack ${method}`,
        { 'slack.method': method },
        (span) =>
          super.apiCall(method, options).catch((e: unknown) => {
            const code = (e as { data?: { error?: unknown } }).data?.error;
            if (typeof code === 'string') span.failed(code, `Slack answered ${code}`);
            throw e;
          }),
        { kind: 'client', inTraceOnly: true },
      );
    }
  };
}
