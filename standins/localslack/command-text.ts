import { BOT_USER_ID, type SlackState } from './state.js';

/**
 * The `text` of a slash command as Slack delivers it. Slack always entity-encodes its three control
 * characters (`&` `<` `>`), so a user typing `<!channel>` arrives as `&lt;!channel&gt;`; with the command's
 * "Escape channels, users, and links" setting (`should_escape`) on, `@name`, `#channel`, `@here`-style
 * broadcasts and URLs also become Slack's `<…>` references.
 *
 * `app`: the app's bot user as the writer's workspace knows it (each installation has its own), for
 * `@tsai`; the stand-in's own bot user when not given.
 */
export function commandText(typed: string, state: SlackState, shouldEscape: boolean, app?: string): string {
  const encoded = typed.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  if (!shouldEscape) return encoded;
  const byName = new Map([...state.users.values()].map((u) => [u.name.toLowerCase(), u.id]));
  const bot = state.users.get(BOT_USER_ID)?.name.toLowerCase();
  if (app && bot) byName.set(bot, app);
  const channels = new Map([...state.channels.values()].map((c) => [c.name.toLowerCase(), c]));
  return encoded.replace(
    /(^|\s)(?:@(here|channel|everyone)\b|@([\w.-]+)|#([\w-]+)|(https?:\/\/\S+))/g,
    (whole, lead: string, broadcast?: string, user?: string, channel?: string, link?: string) => {
      if (broadcast) return `${lead}<!${broadcast}>`;
      if (user) {
        const id = byName.get(user.toLowerCase());
        return id ? `${lead}<@${id}>` : whole;
      }
      if (channel) {
        const c = channels.get(channel.toLowerCase());
        return c ? `${lead}<#${c.id}|${c.name}>` : whole;
      }
      return `${lead}<${link}>`;
    },
  );
}
