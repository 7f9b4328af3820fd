import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type LocalSlack, startLocalSlack } from '../../../standins/localslack/index.js';
import { EMOJI_FONT_PATH, type SandboxServer, startSandboxServer } from '../../../standins/sandbox/server.js';
import { SECRET, startTestBot, type TestBot, TOKEN } from '../localslack/bolt-app.js';
import { buildProduct, chromiumAvailable, launchChromium, ROOT } from './browser.js';
import { galleryBlocks } from './gallery.js';
import { type Product, startProduct } from './product.js';

/**
 * The browser sandbox in a real chromium: first the page against the local Slack and a bare Bolt app
 * (what it draws and what it sends), then the product exactly as `npm start` runs it.
 * One file, so the build into dist/ (as `npm start` does it) happens once.
 * SANDBOX_SCREENSHOTS=1 also saves the key screens under docs/screenshots/.
 */
const run = chromiumAvailable();
const SHOTS = process.env.SANDBOX_SCREENSHOTS ? join(ROOT, 'docs', 'screenshots') : undefined;

async function shot(page: Page, name: string): Promise<void> {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.mouse.move(0, 0); // no hover effects in the pictures
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
}

let browser: Awaited<ReturnType<typeof launchChromium>>;

beforeAll(async () => {
  if (!run) return;
  await buildProduct();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

async function send(page: Page, text: string): Promise<void> {
  await page.locator('#composer-input').fill(text);
  await page.keyboard.press('Enter');
}

async function actAs(page: Page, user: string): Promise<void> {
  await page.locator(`[data-user="${user}"]`).click();
  await page.locator(`body[data-viewer="${user}"]`).waitFor();
}

describe.skipIf(!run)('sandbox page with a bare Bolt app', { timeout: 60_000 }, () => {
  let slack: LocalSlack;
  let bot: TestBot;
  let server: SandboxServer;
  let page: Page;

  beforeAll(async () => {
    slack = await startLocalSlack({ signingSecret: SECRET, botToken: TOKEN });
    bot = await startTestBot(slack.apiUrl);
    slack.setBotEndpoint(bot.endpoint);
    server = await startSandboxServer({ slack });
    page = await browser.context.newPage();
  });
  afterAll(async () => {
    await page?.close();
    await server?.close();
    await bot?.stop();
    await slack?.close();
  });

  const api = async (method: string, args: Record<string, unknown>) => {
    const r = await fetch(`${slack.apiUrl}${method}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify(args),
    });
    const j = (await r.json()) as { ok: boolean; error?: string };
    expect(j.error).toBeUndefined();
    return j;
  };

  it('draws blocks and mrkdwn as Slack does, showing escaped text literally', async () => {
    await api('chat.postMessage', { channel: 'C0GENERAL', text: 'gallery', blocks: galleryBlocks });
    await api('chat.postEphemeral', { channel: 'C0GENERAL', user: 'U0ALICE', text: 'a secret for *alice*' });
    await page.goto(`${server.url}#user=U0ALICE&channel=C0GENERAL`);
    const msg = page.locator('.message', { hasText: 'Flow created' });
    await msg.waitFor();
    await expect(msg.locator('.block.header').textContent()).resolves.toBe('Flow created ✅');
    const section = msg.locator('[data-block-id="g_section"]');
    await expect(section.locator('b').first().textContent()).resolves.toBe('learn');
    await expect(section.locator('i').textContent()).resolves.toBe('italic');
    await expect(section.locator('a.link').getAttribute('href')).resolves.toBe('https://example.com/docs');
    await expect(section.locator('.mention').first().textContent()).resolves.toBe('@alice');
    // Entity-escaped text is shown literally: no broadcast mention, no second link (formatting still applies).
    const text = await section.locator('.section-body').textContent();
    expect(text).toContain('Name: <!channel> bold <http://evil|click> & code');
    await expect(section.locator('.mention.broadcast').count()).resolves.toBe(0);
    await expect(section.locator('a').count()).resolves.toBe(1);
    await expect(msg.locator('.fields .field-cell').count()).resolves.toBe(3);
    await expect(msg.locator('button.btn.primary').textContent()).resolves.toBe('Approve');
    await expect(msg.locator('button.btn.danger').textContent()).resolves.toBe('Reject');
    await expect(msg.locator('select option').allTextContents()).resolves.toEqual([
      'Pick a model',
      'M[0] temperature',
      'M[1] temperature',
    ]);
    await expect(msg.locator('input[type=date]').inputValue()).resolves.toBe('2026-11-20');
    await expect(msg.locator('.block.context code').textContent()).resolves.toBe(
      '/tsai flow 1400000000000000001',
    );
    await api('chat.postMessage', {
      channel: 'C0GENERAL',
      text: '```{"name": "&lt;b&gt;"}```\n> quoted *line*\n<!here> see <#C0OPS> and <javascript:alert(1)|this>',
    });
    const plain = page.locator('.message', { hasText: 'quoted' });
    await plain.waitFor();
    await expect(plain.locator('pre').textContent()).resolves.toBe('{"name": "<b>"}');
    await expect(plain.locator('blockquote b').textContent()).resolves.toBe('line');
    await expect(plain.locator('.mention.broadcast').textContent()).resolves.toBe('@here');
    await expect(plain.locator('.mention.channel').textContent()).resolves.toBe('#plant-ops');
    // A link to anything but http(s)/mailto is not a link.
    await expect(plain.locator('a').count()).resolves.toBe(0);
    await expect(plain.textContent()).resolves.toContain('<javascript:alert(1)|this>');
    // Slack shows <!date^…> in each viewer's own zone.
    const epoch = Date.UTC(2026, 10, 22, 10, 42) / 1000;
    await api('chat.postMessage', {
      channel: 'C0GENERAL',
      text: `expires <!date^${epoch}^{date_num} {time}|2026-11-22 10:42 UTC>`,
    });
    const expiry = page.locator('.message', { hasText: 'expires' }).locator('.date');
    await expect(expiry.textContent()).resolves.toBe('2026-11-22 10:42');
    const secret = page.locator('.message.ephemeral', { hasText: 'a secret for' });
    await expect(secret.locator('.ephemeral-note').textContent()).resolves.toContain('Only visible to you');

    await page.locator('[data-user="U0BOB"]').click();
    await page.locator('body[data-viewer="U0BOB"]').waitFor();
    await msg.waitFor();
    await expect(page.locator('.message', { hasText: 'a secret for' }).count()).resolves.toBe(0);
    await expect(expiry.textContent()).resolves.toBe('2026-11-22 16:12');
  });

  it("shows the app's reactions under a message, each emoji with its count, as they change", async () => {
    const m = slack.postUserMessage({ user: 'U0ALICE', channel: 'C0GENERAL', text: 'react to me' });
    await page.goto(`${server.url}#user=U0ALICE&channel=C0GENERAL`);
    const msg = page.locator('.message', { hasText: 'react to me' });
    await msg.waitFor();
    await api('reactions.add', { channel: 'C0GENERAL', timestamp: m.ts, name: 'eyes' });
    const eyes = msg.locator('[data-reaction="eyes"]');
    await eyes.waitFor();
    await expect(eyes.locator('.reaction-emoji').textContent()).resolves.toBe('👀');
    await expect(eyes.locator('.reaction-count').textContent()).resolves.toBe('1');
    await api('reactions.add', { channel: 'C0GENERAL', timestamp: m.ts, name: 'white_check_mark' });
    await api('reactions.remove', { channel: 'C0GENERAL', timestamp: m.ts, name: 'eyes' });
    await msg.locator('[data-reaction="white_check_mark"]').waitFor();
    await eyes.waitFor({ state: 'detached' });
  });

  it('draws emoji with the colour font the sandbox serves itself', async () => {
    const served = await fetch(new URL(EMOJI_FONT_PATH, server.url));
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('font/woff2');
    await api('chat.postMessage', { channel: 'C0GENERAL', text: 'emoji check :inbox_tray: 🔥 done' });
    await page.goto(`${server.url}#user=U0ALICE&channel=C0GENERAL`);
    await page.locator('.message', { hasText: 'emoji check' }).waitFor();
    // Polled from here: waitForFunction compiles its predicate inside the page, which the sandbox's
    // Content-Security-Policy (no eval) refuses whenever the first check is not already true.
    await expect
      .poll(
        () =>
          page.evaluate(
            `[...document.fonts].some((f) => f.family.includes('Noto Color Emoji') && f.status === 'loaded')`,
          ),
        { timeout: 10_000 },
      )
      .toBe(true);
    const cdp = await browser.context.newCDPSession(page);
    await cdp.send('DOM.enable');
    await cdp.send('CSS.enable');
    // The fonts the browser drew the emoji's element with. The element is marked, then asked for, and the
    // page may render the channel again in between (it does on every change it hears of), which replaces
    // the element: then it is marked and asked for again.
    const emojiFonts = async () => {
      await page.evaluate(`(() => {
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode())
          if (n.textContent.includes('📥')) n.parentElement.setAttribute('data-emoji-check', '');
      })()`);
      const { root } = await cdp.send('DOM.getDocument', { depth: -1 });
      const { nodeId } = await cdp.send('DOM.querySelector', {
        nodeId: root.nodeId,
        selector: '[data-emoji-check]',
      });
      try {
        return (await cdp.send('CSS.getPlatformFontsForNode', { nodeId })).fonts;
      } catch (e) {
        if (String(e).includes('Could not find node')) return [];
        throw e;
      }
    };
    // Chromium drew the emoji with the web font from the page's server, not a system font.
    await expect
      .poll(emojiFonts, { timeout: 10_000 })
      .toContainEqual(expect.objectContaining({ familyName: 'Noto Color Emoji', isCustomFont: true }));
    await cdp.detach();
  });

  it('sends a slash command from the composer and shows the in-channel and ephemeral replies', async () => {
    await page.goto(`${server.url}#user=U0ALICE&channel=C0OPS`);
    await page.locator('#composer-input').fill('/tsai hello');
    await page.keyboard.press('Enter');
    await page.locator('.message', { hasText: 'hello from the bot to' }).waitFor();
    await page.locator('.message.ephemeral', { hasText: 'only you can see this' }).waitFor();
    const post = slack.calls.find((c) => c.method === 'chat.postMessage' && c.args.channel === 'C0OPS');
    expect(post?.args.text).toBe('hello from the bot to <@U0ALICE>');
    await expect(
      page.locator('.message', { hasText: 'hello from the bot to' }).locator('.mention').textContent(),
    ).resolves.toBe('@alice');
  });

  it('opens a modal, shows client and app errors under the field, and closes it on success', async () => {
    await page.goto(`${server.url}#user=U0CAROL&channel=C0GENERAL`);
    await page.locator('#composer-input').fill('/tsai modal');
    await page.keyboard.press('Enter');
    const modal = page.locator('.modal[data-callback-id="range_modal"]');
    await modal.waitFor();
    await modal.locator('[data-role=submit]').click();
    await modal
      .locator('[data-block-id="range_block"] .input-error', { hasText: 'Please fill out this field.' })
      .waitFor();

    await modal.locator('[data-key="range_block/range"]').fill('bad');
    await modal.locator('[data-role=submit]').click();
    await modal.locator('.input-error', { hasText: 'Could not read "bad" as a time range' }).waitFor();
    await expect(modal.locator('[data-key="range_block/range"]').inputValue()).resolves.toBe('bad');

    // An action inside the modal: the app updates the view in place; what was typed survives.
    await modal.locator('[data-key="range_block/range"]').fill('yesterday');
    await modal.locator('button', { hasText: 'Add note' }).click();
    await modal.locator('[data-block-id="note_block"]').waitFor();
    await expect(modal.locator('[data-key="range_block/range"]').inputValue()).resolves.toBe('yesterday');

    await modal.locator('[data-key="kind_block/kind"]').selectOption('score');
    await modal.locator('[data-role=submit]').click();
    await modal.waitFor({ state: 'detached' });
    await page.locator('.message', { hasText: 'range yesterday kind score by U0CAROL' }).waitFor();
  });

  it("opens the app's Home tab (app_home_opened), searches a type-ahead select there and picks an option", async () => {
    await page.goto(`${server.url}#user=U0BOB&channel=C0GENERAL`);
    await page.locator('body[data-viewer="U0BOB"]').waitFor();
    await page.locator('[data-channel="app"]').click();
    await page.locator('.tab.active[data-tab="home"]').waitFor();
    const home = page.locator('.home');
    await home.locator('[data-block-id="visits"]', { hasText: 'Home opened 1 time(s)' }).waitFor();
    expect(bot.seen.homeOpened.at(-1)).toMatchObject({ user: 'U0BOB', tab: 'home' });

    const find = home.locator('[data-typeahead="home_tools/jump"] input');
    await find.fill('valve');
    await home.locator('.typeahead-option', { hasText: 'Valve 9' }).click();
    await expect.poll(() => bot.seen.selectActions.length).toBe(1);
    expect(bot.seen.selectActions[0]).toMatchObject({
      container: { type: 'view' },
      view: { type: 'home' },
      actions: [{ action_id: 'jump', selected_option: { value: 'valve-9', text: { text: 'Valve 9' } } }],
    });
    await home.locator('[data-typeahead="home_tools/jump"] .chip', { hasText: 'Valve 9' }).waitFor();

    await home.locator('button', { hasText: 'Refresh' }).click();
    await home.locator('[data-block-id="visits"]', { hasText: 'Home opened 2 time(s)' }).waitFor();
    await page.locator('.tab[data-tab="messages"]').click();
    await expect.poll(() => bot.seen.homeOpened.at(-1)?.tab).toBe('messages');
  });

  it('asks the app for options as the user types in a modal, from min_query_length, and submits the picks', async () => {
    await page.goto(`${server.url}#user=U0ALICE&channel=C0GENERAL`);
    await send(page, '/tsai assets');
    const modal = page.locator('.modal[data-callback-id="assets_modal"]');
    await modal.waitFor();
    const asset = modal.locator('[data-typeahead="asset_block/asset"]');
    await asset.locator('.chip', { hasText: 'Pump 1' }).waitFor(); // initial_option
    const before = bot.seen.suggestions.length;
    await asset.locator('input').fill('p');
    await asset.locator('.typeahead-note', { hasText: 'Type 1 more character to search.' }).waitFor();
    expect(bot.seen.suggestions.length).toBe(before);
    await asset.locator('input').fill('pump 3');
    await asset.locator('.typeahead-option', { hasText: 'Pump 3' }).click();
    await asset.locator('.chip', { hasText: 'Pump 3' }).waitFor();
    await expect(asset.locator('.chip').count()).resolves.toBe(1);

    const more = modal.locator('[data-typeahead="more_block/more"]');
    await more.locator('input').fill('pump');
    await more.locator('.typeahead-option', { hasText: 'Pump 2' }).click();
    await expect(more.locator('.chip').allTextContents()).resolves.toEqual(['Valve 9×', 'Pump 2×']);
    await modal.locator('[data-role=submit]').click();
    await modal.waitFor({ state: 'detached' });
    await page
      .locator('.message', { hasText: 'assets Pump 3=pump-3 more Valve 9=valve-9,Pump 2=pump-2 by U0ALICE' })
      .waitFor();
  });

  it('clicks a message button as another user and shows the updated message', async () => {
    await page.goto(`${server.url}#user=U0ALICE&channel=C0GENERAL`);
    await page.locator('#composer-input').fill('/tsai button');
    await page.keyboard.press('Enter');
    const req = page.locator('.message', { hasText: 'Start live model' });
    await req.waitFor();
    await page.locator('[data-user="U0BOB"]').click();
    await page
      .locator('.message', { hasText: 'Start live model' })
      .locator('button', { hasText: 'Approve' })
      .click();
    const done = page.locator('.message', { hasText: 'Approved req-1 by' });
    await done.waitFor();
    await expect(done.locator('.edited').textContent()).resolves.toBe('(edited)');
    await expect(done.locator('.mention').textContent()).resolves.toBe('@bob');
  });
});

describe.skipIf(!run)(
  'the product as npm start runs it (emulator, bot, local Slack, sandbox page)',
  { timeout: 300_000 },
  () => {
    let product: Product;
    let page: Page;
    /** A failed wait's error, with what `shown` showed and what the product logged: slow told from lost. */
    const withWhatHappened =
      (shown: Locator) =>
      async (e: unknown): Promise<never> => {
        throw new Error(`${String(e)}\n${await shown.textContent()}\n${product.output().slice(-4000)}`);
      };

    beforeAll(async () => {
      product = await startProduct();
      page = await browser.context.newPage();
      // Each wait is for what the page shows; its bound only ends a hang, and a busy machine (the whole
      // suite beside other work on two cores) may take a learn's announcement well past Playwright's 30 s.
      page.setDefaultTimeout(90_000);
      // Tall enough that the help reply and the modals fit in the screenshots.
      await page.setViewportSize({ width: 1280, height: 960 });
      await page.goto(product.sandboxUrl);
    }, 60_000);
    afterAll(async () => {
      await page?.close();
      await product?.stop();
    });
    // Each test starts from a fresh page as alice in #plant-ops, whatever the one before left behind.
    beforeEach(async () => {
      await page.goto(`${product.sandboxUrl}#user=U0ALICE&channel=C0OPS`);
      await page.reload();
      await page.locator('body[data-viewer="U0ALICE"]').waitFor();
    });

    it('opens on #plant-ops as alice and shows every user with their own time zone', async () => {
      await page.locator('body[data-viewer="U0ALICE"]').waitFor();
      await expect(page.locator('.pane-title').textContent()).resolves.toBe('#plant-ops');
      const zones = await page.locator('.person-tz').allTextContents();
      // Greg and gina are of the sandbox's second workspace (Globex).
      expect(zones.map((z) => z.split(' · ')[0])).toEqual([
        'Europe/London',
        'Asia/Kolkata',
        'America/New_York',
        'America/Chicago',
        'America/Chicago',
      ]);
    });

    it('shows whoever is acted as their service role and a token for /tsai connect, which the emulator takes as them', async () => {
      const box = page.locator('[data-role=service-identity]');
      await expect(box.textContent()).resolves.toContain(
        'alice is an Owner in the emulator. Type /tsai connect and paste this token:',
      );
      await actAs(page, 'U0CAROL');
      await expect(box.textContent()).resolves.toContain('carol is a User in the emulator.');
      const token = (await box.locator('[data-role=service-token]').textContent()) ?? '';
      expect(token).toMatch(/^tsai-u-/);
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], {
        origin: new URL(product.sandboxUrl).origin,
      });
      await box.locator('[data-role=copy-token]').click();
      await page.locator('.toast', { hasText: 'Token copied' }).waitFor();
      await expect(page.evaluate('navigator.clipboard.readText()')).resolves.toBe(token);
      const live = await fetch(`${product.emulatorUrl}/api/1.2/accounts/1010000000000000001/flows`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          flowType: 'STARTLIVEMODEL',
          name: 'carol tries',
          spec: { model: '1070000000000000003' },
        }),
      });
      expect(live.status).toBe(403);
      const log = (await (await fetch(`${product.emulatorUrl}/_emulator/requests`)).json()) as {
        user: string;
        status: number;
      }[];
      expect(log.filter((r) => r.user === 'carol').map((r) => r.status)).toEqual([403]);
      await actAs(page, 'U0ALICE');
    });

    it('answers /tsai help with a reply only the user sees', async () => {
      await send(page, '/tsai help');
      const help = page.locator('.message.ephemeral', { hasText: 'tsai: commands' });
      await help.waitFor();
      await expect(help.locator('.ephemeral-note').textContent()).resolves.toContain('Only visible to you');
      await expect(help.locator('code', { hasText: '/tsai learn' }).count()).resolves.toBeGreaterThan(0);
      await shot(page, 'help-reply');
      await actAs(page, 'U0BOB');
      await expect(page.locator('.message', { hasText: 'tsai: commands' }).count()).resolves.toBe(0);
      await actAs(page, 'U0ALICE');
    });

    it('runs a mutating command: the team sees it in the channel, the emulator got exactly the request', async () => {
      await send(page, '/tsai workspace create "Line 4" description="<!channel> & friends"');
      const reply = page.locator('.message:not(.ephemeral)', { hasText: 'created a workspace' });
      await reply.waitFor();
      await expect(reply.textContent()).resolves.toContain('<!channel> & friends');
      await expect(reply.locator('.mention.broadcast').count()).resolves.toBe(0);
      const posts = (await product.serviceRequests()).filter(
        (r) => r.method === 'POST' && r.path.endsWith('/workspace'),
      );
      expect(posts).toHaveLength(1);
      expect(posts[0]!.body).toEqual({ name: 'Line 4', description: '<!channel> & friends' });
      // Bob sees the in-channel reply too; the page's service panel lists the request.
      await actAs(page, 'U0BOB');
      await page.locator('.message', { hasText: 'created a workspace' }).waitFor();
      await page.locator('[data-role=service-toggle]').click();
      const req = page.locator('.service-req', { hasText: 'workspace' }).first();
      await req.waitFor();
      await req.locator('summary').click();
      await expect(req.locator('.service-body').textContent()).resolves.toContain('"name": "Line 4"');
      await expect(req.locator('.who').textContent()).resolves.toBe('as tsai-bot');
      await shot(page, 'service-requests');
      await page.locator('[data-role=service-toggle]').click();
      await actAs(page, 'U0ALICE');
    });

    it('follows a learn to its end: the announcement turns COMPLETED on the page, and its thread holds the one mention with the model', async () => {
      await send(
        page,
        '/tsai learn workspace=1030000000000000001 signals=1050000000000000001:temperature range="2026-11-20 to 2026-11-21" name="watch it end"',
      );
      const announcement = page.locator('.message:not(.ephemeral)', { hasText: 'watch it end' });
      await announcement.waitFor();
      await expect(announcement.textContent()).resolves.toMatch(/CREATED|RUNNING/);
      // Updated in place on the page, as the bot follows the flow (reads after 3 s, then 6 s…).
      await page
        .locator('.message:not(.ephemeral)', { hasText: 'watch it end' })
        .filter({ hasText: 'COMPLETED after' })
        .waitFor({ timeout: 90_000 });
      await shot(page, 'flow-completed');
      await announcement.locator('button.replies').click();
      const reply = page.locator('#thread-pane .message', { hasText: 'your ANOMALYLEARN flow' });
      await reply.waitFor();
      await expect(reply.textContent()).resolves.toContain('Pump station A/anomaly/M[');
      await expect(reply.locator('button', { hasText: 'Score with this model' }).count()).resolves.toBe(1);
      await shot(page, 'flow-thread');
    });

    it('a schedule "every minute" fires on the page: its learn is announced and followed like a typed one', {
      timeout: 240_000,
    }, async () => {
      await send(
        page,
        '/tsai schedule "every minute" name="sandbox minute" learn workspace=1030000000000000001 signals=1050000000000000001:temperature range="last 8 hours" name="every minute here"',
      );
      const made = page.locator('.message', { hasText: 'every minute' }).filter({ hasText: 'Next runs' });
      await made.waitFor();
      await expect(made.textContent()).resolves.toContain('Europe/London');
      // At the next minute the bot runs it by itself: the announcement appears, then moves on.
      const announced = page.locator('.message:not(.ephemeral)', { hasText: 'every minute here' });
      await announced.first().waitFor({ timeout: 75_000 });
      await page
        .locator('.message:not(.ephemeral)', { hasText: 'every minute here' })
        .filter({ hasText: /RUNNING|COMPLETED/ })
        .first()
        // The run comes at the next minute (up to 60 s away: the creation message already names the
        // flow, so the wait above can end at once), and its status with the tracker's next poll.
        .waitFor({ timeout: 120_000 });
      await send(page, '/tsai schedule delete "sandbox minute"');
      await page.locator('.message', { hasText: 'deleted the schedule' }).waitFor();
    });

    it('posts a digest of the channel when asked for now', async () => {
      await send(page, '/tsai digest now');
      const digest = page.locator('.message:not(.ephemeral)', { hasText: 'Digest for' });
      await digest.first().waitFor();
      await expect(digest.first().textContent()).resolves.toMatch(/flows? started/);
    });

    it('opens the EVAL modal from a command, refuses a bad range under the field, previews and submits a good one', async () => {
      // Carol is in America/New_York: 09:00 on 5 March 2024 is 14:00 UTC there.
      await actAs(page, 'U0CAROL');
      await send(
        page,
        '/tsai eval 1060000000000000001 model=1070000000000000001 datastream=1040000000000000001 entities=pump-1',
      );
      const modal = page.locator('.modal[data-callback-id="tsai_modal_eval"]');
      await modal.waitFor();
      // The assessment from the command is the type-ahead field's pick, shown by its name.
      await modal
        .locator('[data-typeahead="assessment/assessment_value"] .chip', {
          hasText: 'Temperature anomaly · 1060000000000000001',
        })
        .waitFor();
      const rangeBlock = modal.locator('.block.input[data-block-id^="range_"]');
      const range = rangeBlock.locator('input');
      await range.fill('next blursday');
      await range.press('Enter');
      await rangeBlock.locator('.hint', { hasText: '⚠️' }).waitFor();
      await modal.locator('[data-role=submit]').click();
      await rangeBlock.locator('.input-error').waitFor();
      const flows = async () =>
        (await product.serviceRequests()).filter(
          (r) =>
            r.method === 'POST' &&
            r.path.endsWith('/flows') &&
            (r.body as { flowType?: string }).flowType === 'EVAL',
        );
      expect(await flows()).toHaveLength(0);

      await range.fill('2024-03-05 09:00 to 17:00');
      await range.press('Enter');
      await rangeBlock.locator('.hint', { hasText: '14:00–22:00 UTC' }).waitFor();
      await expect(range.inputValue()).resolves.toBe('2024-03-05 09:00 to 17:00');
      await rangeBlock.locator('.hint').scrollIntoViewIfNeeded();
      await shot(page, 'modal-range-preview');
      await modal.locator('[data-role=submit]').click();
      await modal.waitFor({ state: 'detached' });
      // The flow is created after the ack; its message in the channel says it exists.
      await page.locator('.message:not(.ephemeral)', { hasText: 'started an EVAL flow' }).waitFor();

      const posted = await flows();
      expect(posted).toHaveLength(1);
      const body = posted[0]!.body as { flowType: string; spec: { segments: unknown[] } };
      expect(body.flowType).toBe('EVAL');
      const ns = (ms: number) => `${BigInt(ms) * 1_000_000n}`;
      expect(body.spec.segments).toEqual([
        {
          entities: ['pump-1'],
          timeRange: { startTime: ns(Date.UTC(2024, 2, 5, 14)), endTime: ns(Date.UTC(2024, 2, 5, 22)) },
        },
      ]);
      await actAs(page, 'U0ALICE');
    });

    it("opens a modal from the app's global shortcuts (⚡, from manifest.yml) and cancels it", async () => {
      await page.locator('#composer-shortcuts').click();
      await page.locator('[data-shortcut="tsai_shortcut_learn"]').click();
      const modal = page.locator('.modal[data-callback-id="tsai_modal_learn"]');
      await modal.waitFor();
      // From a shortcut there is no current channel: the modal asks where to post.
      await expect(
        modal.locator('[data-key="channel/channel_value"] option').allTextContents(),
      ).resolves.toEqual(['Choose a channel', '#general', '#plant-ops']);
      await modal.locator('.modal-footer .btn', { hasText: 'Cancel' }).click();
      await modal.waitFor({ state: 'detached' });
    });

    it('files a live-start request that the requester cannot approve and a second user approves once', async () => {
      const model = '1070000000000000003';
      const starts = async () =>
        (await product.serviceRequests()).filter(
          (r) =>
            r.method === 'POST' &&
            r.status === 201 &&
            (r.body as { flowType?: string } | undefined)?.flowType === 'STARTLIVEMODEL',
        );
      await send(page, `/tsai live start ${model} reason="night shift check"`);
      const request = page.locator('.message:not(.ephemeral)', {
        has: page.locator('[data-action$="/approval_approve"]'),
      });
      await request.waitFor();
      await expect(request.textContent()).resolves.toContain(model);

      // Alice is no approver: her click changes nothing, and she is told whom to ask.
      await request.locator('[data-action$="/approval_approve"]').click();
      const refusal = page.locator('.message.ephemeral', { hasText: 'You are not an approver' });
      await refusal.waitFor();
      await expect(refusal.locator('.mention').allTextContents()).resolves.toEqual(['@bob', '@carol']);
      expect(await starts()).toHaveLength(0);

      await actAs(page, 'U0BOB');
      const forBob = page.locator('.message', { has: page.locator('[data-action$="/approval_approve"]') });
      await forBob.waitFor();
      await shot(page, 'approval-request');
      await forBob.locator('[data-action$="/approval_approve"]').click();
      const done = page.locator('.message', { hasText: 'Approved and executed' });
      await done.waitFor();
      await expect(done.locator('.mention', { hasText: '@bob' }).count()).resolves.toBeGreaterThan(0);
      await expect(done.locator('[data-action$="/approval_approve"]').count()).resolves.toBe(0);
      await expect(done.locator('.edited').count()).resolves.toBe(1);
      await shot(page, 'approval-approved');

      const posted = await starts();
      expect(posted).toHaveLength(1);
      expect(posted[0]!.body).toMatchObject({ flowType: 'STARTLIVEMODEL', spec: { model } });
      // The requester is told in the request's thread.
      await actAs(page, 'U0ALICE');
      await page.locator('.message', { hasText: 'Approved and executed' }).locator('button.replies').click();
      await page.locator('#thread-pane .message').nth(1).waitFor();
    });

    it('a user picks a workspace and signals by name in the learn form, approves from the Home tab, and finds the finished flow there with its model', async () => {
      const posts = async (flowType: string) =>
        (await product.serviceRequests()).filter(
          (r) => r.method === 'POST' && (r.body as { flowType?: string } | undefined)?.flowType === flowType,
        );
      const learnsBefore = (await posts('ANOMALYLEARN')).length;
      // Alice files a request for an approver: a stop, as the earlier test started this model.
      await send(page, '/tsai live stop 1070000000000000003 reason="pressure check"');
      await page
        .locator('.message:not(.ephemeral)', { hasText: 'pressure check' })
        .locator('[data-action$="/approval_approve"]')
        .waitFor();

      // Bob opens the learn form and picks what he needs by name: the bot knows the demo data.
      await actAs(page, 'U0BOB');
      await send(page, '/tsai learn');
      const modal = page.locator('.modal[data-callback-id="tsai_modal_learn"]');
      await modal.waitFor();
      const workspace = modal.locator('[data-typeahead="workspace/workspace_value"]');
      await workspace.locator('input').fill('pump');
      await workspace.locator('.typeahead-option', { hasText: 'Pump station A' }).click();
      await workspace.locator('.chip', { hasText: 'Pump station A' }).waitFor();
      const range = modal.locator('.block.input[data-block-id^="range_"] input');
      await range.fill('yesterday 9am to 5pm');
      await range.press('Enter');
      await modal.locator('.hint', { hasText: '✅' }).waitFor();
      const signals = modal.locator('[data-typeahead="signals/signals_value"]');
      await signals.locator('input').fill('temp');
      await signals.locator('.typeahead-option', { hasText: 'temperature' }).click();
      await signals.locator('input').fill('press');
      const pressure = signals.locator('.typeahead-option', { hasText: 'pressure' });
      await pressure.waitFor();
      // Tall enough to show the picked workspace, the signals and the list the bot offers.
      await page.setViewportSize({ width: 1280, height: 1250 });
      await shot(page, 'learn-typeahead');
      await page.setViewportSize({ width: 1280, height: 960 });
      await pressure.click();
      await expect(signals.locator('.chip').count()).resolves.toBe(2);
      await modal.locator('[data-role=submit]').click();
      await modal.waitFor({ state: 'detached' });
      await expect
        .poll(async () => (await posts('ANOMALYLEARN')).length, { timeout: 10_000 })
        .toBe(learnsBefore + 1);
      const learns = await posts('ANOMALYLEARN');
      expect(learns).toHaveLength(learnsBefore + 1);
      expect(learns.at(-1)!.body).toMatchObject({
        spec: {
          workspace: '1030000000000000001',
          dataspec: {
            specs: [
              {
                signals: [
                  { signal: '1050000000000000001', name: 'temperature' },
                  { signal: '1050000000000000002', name: 'pressure' },
                ],
              },
            ],
          },
        },
      });

      // His Home tab: the request waits for him, with Approve right there.
      await page.locator('[data-channel="app"]').click();
      await page.locator('.tab[data-tab="home"]').click();
      const home = page.locator('.home');
      const waiting = home.locator('.block', { hasText: 'pressure check' });
      await waiting.waitFor();
      // When the flow ends, his Home is published again: the flow with the model it created.
      const flow = home.locator('.block', { hasText: 'ANOMALYLEARN' }).first();
      await flow.locator('text=Model created').waitFor({ timeout: 45_000 });
      await expect(flow.textContent()).resolves.toContain('COMPLETED');
      await shot(page, 'home-tab');
      const stops = (await posts('STOPLIVEMODEL')).length;
      await home.locator('[data-action$="/home_approve"]').first().click();
      await home.locator('h3.block.header', { hasText: 'Waiting for your approval (0)' }).waitFor();
      expect(await posts('STOPLIVEMODEL')).toHaveLength(stops + 1);
      await home.locator('.block', { hasText: 'ANOMALYLEARN' }).locator('text=Model created').waitFor();
      // The request's card says who approved it.
      await page.locator('[data-channel="C0OPS"]').click();
      await page
        .locator('.message', { hasText: 'pressure check' })
        .locator('text=Approved and executed')
        .waitFor();
      await actAs(page, 'U0ALICE');
    }, 300_000);

    it('an approver rejects a request with a reason typed into the small modal; nothing reaches the service', async () => {
      const before = (await product.serviceRequests()).length;
      await send(page, '/tsai live stop 1070000000000000001');
      // This model's request: the card of the one approved before may still read "asks to" too.
      const asks = 'asks to stop live model 1070000000000000001';
      await page.locator('.message', { hasText: asks }).waitFor();
      await actAs(page, 'U0CAROL');
      const card = page.locator('.message', { hasText: asks });
      await card.locator('[data-action$="/approval_reject"]').click();
      const modal = page.locator('.modal[data-callback-id="approval_reject_reason"]');
      await modal.waitFor();
      await modal.locator('textarea').fill('Not during the audit <b> & co');
      await modal.locator('[data-role=submit]').click();
      await modal.waitFor({ state: 'detached' });
      const rejected = page.locator('.message', { hasText: 'Rejected' });
      await rejected.waitFor();
      await expect(rejected.textContent()).resolves.toContain('Not during the audit <b> & co');
      await expect(rejected.locator('[data-action$="/approval_approve"]').count()).resolves.toBe(0);
      const after = await product.serviceRequests();
      expect(after.slice(before).filter((r) => r.method === 'POST')).toEqual([]);
    });

    it('builds a workflow of the manifest’s steps, runs it, and shows each step wait and complete', async () => {
      await page.locator('[data-role="workflows-toggle"]').click();
      const pane = page.locator('#workflow-pane');
      await pane.locator('[data-role="wf-example"]').click();
      // Learn, then score with what the learn produced: the score's model comes from step 1's outputs.
      await expect(pane.locator('.wf-step').count()).resolves.toBe(2);
      const modelSource = pane.locator('.wf-step[data-step="1"] select[data-input="model"]');
      await expect(modelSource.inputValue()).resolves.toBe('0:model_id');
      await pane.locator('[data-role="wf-run"]').click();
      const run = pane.locator('.wf-run').first();
      await run.locator('.wf-step-state[data-state="running"]').first().waitFor();
      await run
        .locator('.wf-run-state', { hasText: /completed|failed/ })
        .waitFor({ timeout: 50_000 })
        .catch(withWhatHappened(run));
      await expect(run.locator('.wf-run-state').textContent()).resolves.toBe('completed');
      await expect(run.locator('.wf-step-state[data-state="completed"]').count()).resolves.toBe(2);
      const learned = await run.locator('.wf-step-state').first().locator('dd').allTextContents();
      const posts = (await product.serviceRequests()).filter((r) => r.method === 'POST');
      const score = posts.findLast((r) => JSON.stringify(r.body).includes('ANOMALYEVAL'));
      // The model the learn produced is the one the score asked the service to use.
      expect(learned.some((v) => /^\d{19}$/.test(v) && JSON.stringify(score?.body).includes(v))).toBe(true);
    }, 300_000);

    it('a thread conversation: a question, then @tsai answers there, follows a learn to its end there, and tells a live start’s decision there', async () => {
      await send(page, 'Pump 1 ran hot overnight: was its baseline learn fine?');
      const question = page.locator('#messages .message', { hasText: 'Pump 1 ran hot overnight' });
      await question.waitFor();
      await question.hover();
      await question.locator('button[title="Reply in thread"]').click();
      const thread = page.locator('#thread-pane');
      const reply = async (text: string) => {
        await thread.locator('.thread-input').fill(text);
        await thread.locator('.thread-input').press('Enter');
      };

      // A slash command is refused in a thread, as in Slack, with the way to ask there.
      await reply('/tsai flows');
      await page.locator('.toast', { hasText: 'Mention the app instead' }).waitFor();

      // Asked in the thread, answered in the thread, only to alice.
      await reply('@tsai flow 1090000000000000001');
      const status = thread.locator('.message.ephemeral', { hasText: '1090000000000000001' });
      await status.waitFor();
      await expect(thread.locator('.message', { hasText: '@tsai' }).first().textContent()).resolves.toContain(
        '@tsai flow 1090000000000000001',
      );

      // A learn asked there is announced there and followed to its end there.
      await reply(
        '@tsai learn workspace=1030000000000000001 signals=1050000000000000001:temperature range="2026-11-20 to 2026-11-21" name="thread learn"',
      );
      const threadFailed = withWhatHappened(thread);
      const announced = thread.locator('.message:not(.ephemeral)', { hasText: 'thread learn' });
      await announced.first().waitFor().catch(threadFailed);
      await announced
        .filter({ hasText: 'COMPLETED after' })
        .first()
        .waitFor({ timeout: 90_000 })
        .catch(threadFailed);
      await thread
        .locator('.message', { hasText: 'your ANOMALYLEARN flow' })
        .waitFor({ timeout: 90_000 })
        .catch(threadFailed);
      await expect(page.locator('#messages .message', { hasText: 'thread learn' }).count()).resolves.toBe(0);
      if (SHOTS) {
        await page.locator('.toast').first().waitFor({ state: 'detached' });
        await thread.locator('.thread-messages').evaluate((el) => {
          el.scrollTop = el.scrollHeight;
        });
        await shot(page, 'thread-conversation');
      }

      // A live start asked there says there where it waits; bob approves it; alice is told there.
      await reply('@tsai live start 1070000000000000002 reason="after the overnight run"');
      await thread.locator('.message:not(.ephemeral)', { hasText: 'waiting for approval' }).waitFor();
      await actAs(page, 'U0BOB');
      const card = page
        .locator('#messages .message', { hasText: 'start live model 1070000000000000002' })
        .filter({ has: page.locator('[data-action$="/approval_approve"]') });
      await card.waitFor();
      await card.locator('[data-action$="/approval_approve"]').click();
      await page.locator('#messages .message', { hasText: 'Approved and executed' }).first().waitFor();
      await actAs(page, 'U0ALICE');
      await page
        .locator('#messages .message', { hasText: 'Pump 1 ran hot overnight' })
        .locator('button.replies')
        .click();
      await page.locator('#thread-pane .message', { hasText: 'was approved' }).waitFor();
    }, 300_000);

    it('keeps what is typed in a thread’s box when a reply arrives and the thread is drawn again', async () => {
      await send(page, 'Who has the keys to pump house 2?');
      const question = page.locator('#messages .message', { hasText: 'keys to pump house 2' });
      await question.waitFor();
      await question.hover();
      await question.locator('button[title="Reply in thread"]').click();
      const box = page.locator('#thread-pane .thread-input');
      await box.fill('@tsai flows');
      // Bob answers in the thread while alice is still typing.
      await page.evaluate(async () => {
        type Channel = { id: string; messages: { ts: string; text?: string }[] };
        const snap = (await (await fetch('/_local/snapshot?viewer=U0ALICE')).json()) as {
          channels: Channel[];
        };
        const ops = snap.channels.find((c) => c.id === 'C0OPS');
        const parent = ops?.messages.find((m) => m.text?.includes('keys to pump house 2'));
        await fetch('/_local/message', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ user: 'U0BOB', channel: 'C0OPS', text: 'Ask Dana', threadTs: parent?.ts }),
        });
      });
      await page.locator('#thread-pane .message', { hasText: 'Ask Dana' }).waitFor();
      await expect(box.inputValue()).resolves.toBe('@tsai flows');
      await box.press('Enter');
      await page.locator('#thread-pane .message', { hasText: '@tsai flows' }).first().waitFor();
      await expect(box.inputValue()).resolves.toBe('');
    });

    it('the assistant pane: opened beside #plant-ops, it greets with its prompts; a prompt clicked, a command typed and a plain request run by its button are answered there', async () => {
      await page.locator('[data-role="assistant-toggle"]').click();
      const pane = page.locator('#assistant-pane');
      await pane.locator('.message', { hasText: 'Hi @alice' }).waitFor();
      await expect(pane.locator('[data-role="assistant-context"]').textContent()).resolves.toBe(
        'Viewing #plant-ops',
      );
      const prompts = pane.locator('[data-role="assistant-prompt"]');
      await prompts.first().waitFor();
      const titles = await prompts.allTextContents();
      expect(titles).toContain('Learn an anomaly model');
      expect(titles.length).toBeLessThanOrEqual(4);
      await shot(page, 'assistant-pane');

      // A prompt is sent as alice's own message, and answered in the pane.
      await prompts.filter({ hasText: /flows/i }).click();
      await pane
        .locator('.message', { hasText: /flows? started|No flows|Latest flows/i })
        .first()
        .waitFor();
      await expect(prompts.count()).resolves.toBe(0);
      // Her message is marked done, and the thread titled after it.
      await pane.locator('.message [data-reaction="white_check_mark"]').first().waitFor();
      await expect(pane.locator('.thread-header .pane-sub').textContent()).resolves.toContain('flows');

      // A command typed there, without /tsai.
      await pane.locator('[data-role="assistant-input"]').fill('workspace show 1030000000000000001');
      await pane.locator('[data-role="assistant-input"]').press('Enter');
      await pane.locator('.message', { hasText: 'Pump station A' }).first().waitFor();

      // A plain request: read, shown as the command, and run by its button, never before.
      await pane
        .locator('[data-role="assistant-input"]')
        .fill(
          'please train a model on signal 1050000000000000001 at workspace 1030000000000000001 using yesterday',
        );
      await pane.locator('[data-role="assistant-input"]').press('Enter');
      const reading = pane.locator('.message', { hasText: 'I read this as' }).last();
      await reading.waitFor();
      await expect(reading.locator('code').first().textContent()).resolves.toBe(
        'learn workspace=1030000000000000001 signals=1050000000000000001 range="yesterday"',
      );
      await shot(page, 'assistant-plain-request');
      await reading.locator('button', { hasText: 'Run it' }).click();
      await pane.locator('.message', { hasText: 'ANOMALYLEARN' }).first().waitFor();
      await page.locator('[data-role="assistant-toggle"]').click();
      await pane.waitFor({ state: 'hidden' });
    });

    it('the Messages tab takes commands without /tsai, answered there', async () => {
      await page.locator('[data-channel="app"]').click();
      await page.locator('[data-tab="messages"]').click();
      await send(page, 'help learn');
      const help = page
        .locator('#messages .message', { hasText: 'Help for' })
        .or(page.locator('#messages .message', { hasText: 'learn workspace=' }));
      await help.first().waitFor();
      await expect(help.first().locator('code', { hasText: '/tsai' }).count()).resolves.toBe(0);
      await send(page, 'flows');
      await page
        .locator('#messages .message', { hasText: /flows? started|No flows|Latest flows/i })
        .first()
        .waitFor();
    });
    it('runs a model’s whole life as a workflow: learn, take it live, backfill, stop, an approver deciding on the cards', async () => {
      const pane = page.locator('#workflow-pane');
      if (!(await pane.locator('[data-role="wf-example-life"]').isVisible()))
        await page.locator('[data-role="workflows-toggle"]').click();
      await pane.locator('[data-role="wf-example-life"]').click();
      await expect(pane.locator('.wf-step').count()).resolves.toBe(4);
      const assessment = pane.locator('.wf-step[data-step="2"] select[data-input="assessment"]');
      await expect(assessment.inputValue()).resolves.toBe('0:assessment_id');
      await pane.locator('[data-role="wf-run"]').click();
      const run = pane.locator('.wf-run').first();
      const fail = withWhatHappened(run);
      // Bob approves the live start on its card, and then the live stop.
      await actAs(page, 'U0BOB');
      for (const asks of ['asks to start live model', 'asks to stop live model']) {
        const card = page
          .locator('.message', { hasText: asks })
          .filter({ has: page.locator('[data-action$="/approval_approve"]') })
          .last();
        await card.waitFor({ timeout: 50_000 }).catch(fail);
        await card.locator('[data-action$="/approval_approve"]').click();
      }
      await actAs(page, 'U0ALICE');
      await run
        .locator('.wf-run-state', { hasText: /completed|failed/ })
        .waitFor({ timeout: 50_000 })
        .catch(fail);
      await expect(run.locator('.wf-run-state').textContent()).resolves.toBe('completed');
      await expect(run.locator('.wf-step-state[data-state="completed"]').count()).resolves.toBe(4);
      const posts = (await product.serviceRequests()).filter((r) => r.method === 'POST' && r.status === 201);
      const types = posts.map((r) => (r.body as { flowType?: string }).flowType);
      expect(types.slice(-4)).toEqual(['ANOMALYLEARN', 'STARTLIVEMODEL', 'EVAL', 'STOPLIVEMODEL']);
      // The backfill wrote through the learned model, its signal's M[0].
      const backfill = posts.at(-2)!.body as {
        assessment: string;
        model: string;
        spec: { commonModelId: string };
      };
      expect(backfill.assessment).toBe('1050000000000000003');
      expect(backfill.spec.commonModelId).toBe(backfill.model);
    }, 300_000);
  },
);
