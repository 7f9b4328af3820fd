import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalSlack, startLocalSlack } from '../../src/localslack/index.js';
import { type SandboxServer, startSandboxServer } from '../../src/sandbox/server.js';
import { SECRET, startTestBot, type TestBot, TOKEN } from '../localslack/bolt-app.js';
import { buildProduct, chromiumAvailable, launchChromium } from './browser.js';
import { galleryBlocks } from './gallery.js';

/**
 * The sandbox page against the local Slack and a bare Bolt app: what it draws and what it sends.
 * (The product itself, with the real bot and emulator, is driven in product.test.ts.)
 */
const run = chromiumAvailable();

describe.skipIf(!run)('sandbox page', () => {
  let slack: LocalSlack;
  let bot: TestBot;
  let server: SandboxServer;
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  let page: Page;

  beforeAll(async () => {
    await buildProduct();
    slack = await startLocalSlack({ signingSecret: SECRET, botToken: TOKEN });
    bot = await startTestBot(slack.apiUrl);
    slack.setBotEndpoint(bot.endpoint);
    server = await startSandboxServer({ slack });
    browser = await launchChromium();
    page = await browser.context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
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
    const secret = page.locator('.message.ephemeral', { hasText: 'a secret for' });
    await expect(secret.locator('.ephemeral-note').textContent()).resolves.toContain('Only visible to you');

    if (process.env.DEV_SHOTS) await page.screenshot({ path: `${process.env.DEV_SHOTS}/gallery.png` });
    await page.locator('[data-user="U0BOB"]').click();
    await page.locator('body[data-viewer="U0BOB"]').waitFor();
    await msg.waitFor();
    await expect(page.locator('.message', { hasText: 'a secret for' }).count()).resolves.toBe(0);
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
    if (process.env.DEV_SHOTS) await page.screenshot({ path: `${process.env.DEV_SHOTS}/modal.png` });
    await expect(modal.locator('[data-key="range_block/range"]').inputValue()).resolves.toBe('yesterday');

    await modal.locator('[data-key="kind_block/kind"]').selectOption('score');
    await modal.locator('[data-role=submit]').click();
    await modal.waitFor({ state: 'detached' });
    await page.locator('.message', { hasText: 'range yesterday kind score by U0CAROL' }).waitFor();
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
