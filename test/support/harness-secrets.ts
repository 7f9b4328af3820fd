/** The test bots' Slack secrets: fixed, so that the run's log scan knows them (test/global-log-scan.ts). */
export const SIGNING_SECRET = 'harness-signing-secret-0123456789';
export const BOT_TOKEN = 'xoxb-harness-bot-token-0123456789';
