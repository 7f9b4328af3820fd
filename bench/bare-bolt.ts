// Child-process entry of the baseline app, configured like the bot: SLACK_BOT_TOKEN,
// SLACK_SIGNING_SECRET, SLACK_API_URL, PORT.
import { startBareBolt } from './bare-app.js';

const env = process.env;
if (!env.SLACK_BOT_TOKEN || !env.SLACK_SIGNING_SECRET) {
  console.error('bare-bolt: SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET are required');
  process.exit(2);
}
const running = await startBareBolt({
  botToken: env.SLACK_BOT_TOKEN,
  signingSecret: env.SLACK_SIGNING_SECRET,
  slackApiUrl: env.SLACK_API_URL,
  port: Number(env.PORT ?? 3000),
});
console.log(`bare-bolt listening on ${running.url}`);
const stop = () => {
  running.stop().finally(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
