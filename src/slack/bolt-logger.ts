import { LogLevel, type Logger as SlackLogger } from '@slack/web-api';
import { maskSecrets } from '../core/secret-text.js';
import type { Logger } from '../log.js';

/**
 * Routes Bolt's and the Web API client's logs through our pino logger, so secrets are scrubbed there too.
 * Their lines carry Slack's payloads whole (at debug, every request body and Web API answer, a form's
 * typed values included), so a token a person pasted into a form or a message is masked in them as it is
 * everywhere the bot shows or keeps what people type; the logger's own scrub knows only the bot's secrets
 * and Slack's token shapes.
 */
export function boltLogger(log: Logger): SlackLogger {
  let level: LogLevel = LogLevel.INFO;
  let child = log.child({ component: 'bolt' });
  const text = (msg: unknown[]) =>
    msg
      .map((m) => maskSecrets(typeof m === 'string' ? m : m instanceof Error ? m.message : JSON.stringify(m)))
      .join(' ');
  return {
    // Bolt logs at debug several times per request; the text is not even made unless it is written.
    debug: (...msg) => {
      if (child.isLevelEnabled('debug')) child.debug(text(msg));
    },
    info: (...msg) => child.info(text(msg)),
    warn: (...msg) => child.warn(text(msg)),
    error: (...msg) => child.error(text(msg)),
    setLevel: (l) => {
      level = l;
    },
    getLevel: () => level,
    setName: (name) => {
      child = log.child({ component: name });
    },
  };
}
