import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProduct, chromiumAvailable, launchChromium } from './browser.js';
import { type Product, startProduct } from './product.js';

/**
 * "Add to Slack" in the sandbox, in a real chromium against the product as `npm start` runs it: a person
 * of the second workspace (Globex) adds the app from the page, through the bot's install page and Slack's
 * authorize page, connects Globex's own service account, and sees nothing of the first workspace.
 */
const run = chromiumAvailable();

async function send(page: Page, text: string): Promise<void> {
  await page.locator('#composer-input').fill(text);
  await page.keyboard.press('Enter');
}

describe.skipIf(!run)(
  'installing the app into a second workspace from the sandbox',
  { timeout: 120_000 },
  () => {
    let browser: Awaited<ReturnType<typeof launchChromium>>;
    let product: Product;
    let page: Page;

    beforeAll(async () => {
      await buildProduct();
      browser = await launchChromium();
      product = await startProduct();
      page = await browser.context.newPage();
      await page.setViewportSize({ width: 1280, height: 960 });
      await page.goto(`${product.sandboxUrl}#user=U0GREG`);
    }, 120_000);
    afterAll(async () => {
      await page?.close();
      await browser?.close();
      await product?.stop();
    });

    it('adds the app to Globex, connects its own account, and shows nothing of the first workspace', async () => {
      await page.locator('body[data-viewer="U0GREG"]').waitFor();
      await expect(page.locator('[data-role=workspace-name]').textContent()).resolves.toBe('Globex');
      // Greg sees his workspace's channel only, and that the app is not installed there.
      await expect(page.locator('.channels [data-channel^="C"]').allTextContents()).resolves.toEqual([
        '#globex-ops',
      ]);
      const add = page.locator('[data-role=not-installed] [data-role=add-to-slack]');
      await add.waitFor();

      // "Add to Slack" opens the bot's install page in a new tab, which goes to Slack's authorize page.
      const [install] = await Promise.all([page.context().waitForEvent('page'), add.click()]);
      await install.locator('#add-to-slack').click();
      await install.locator('select#target').selectOption('T0GLOBEX');
      await install.locator('select#user').selectOption('U0GREG');
      await install.locator('#allow').click();
      await install.locator('h1', { hasText: 'tsai is installed' }).waitFor();
      await expect(install.locator('body').textContent()).resolves.toContain('installed in Globex');
      await install.close();

      // Back on the page: installed, and what Globex's admins connect it to.
      const service = page.locator('[data-role=workspace-service]');
      await service.waitFor();
      await expect(page.locator('[data-role=not-installed]').count()).resolves.toBe(0);
      const url = (await service.locator('[data-role=workspace-service-url]').textContent()) ?? '';
      const account = (await service.locator('[data-role=workspace-service-account]').textContent()) ?? '';
      const token = (await service.locator('[data-role=workspace-service-token]').textContent()) ?? '';

      // Before it is connected, nothing is sent anywhere.
      await send(page, '/tsai workspace show 1030000000000000001');
      await page
        .locator('.message.ephemeral', { hasText: 'not connected to a service account yet' })
        .waitFor();

      // Greg installed it, so he is one of its admins: /tsai setup opens the form.
      await send(page, '/tsai setup');
      const modal = page.locator('.modal[data-callback-id="tenant_setup_form"]');
      await modal.waitFor();
      await modal.locator('[data-key="setup_base_url/setup_base_url_input"]').fill(url);
      await modal.locator('[data-key="setup_account_id/setup_account_id_input"]').fill(account);
      await modal.locator('[data-key="setup_token/setup_token_input"]').fill(token);
      await modal.locator('[data-role=submit]').click();
      await modal.locator('text=This workspace works with account').waitFor();
      await modal.locator('.modal-footer .btn', { hasText: 'Done' }).click();
      await modal.waitFor({ state: 'detached' });

      // The first workspace's names (its catalog knows the demo data) are not Globex's.
      await send(page, '/tsai workspace show "Pump station A"');
      await page
        .locator('.message.ephemeral', { hasText: 'No workspace named "Pump station A" is known' })
        .waitFor();
      // Globex's own account answers its commands; the first workspace's service received none of them.
      const before = (await product.serviceRequests()).length;
      await send(page, '/tsai workspace show 1030000000000000001');
      await page.locator('.message.ephemeral', { hasText: 'Workspace Pump station A' }).waitFor();
      const globex = (await (await fetch(`${url}/_emulator/requests`)).json()) as { path: string }[];
      expect(globex.map((r) => r.path)).toContain(
        `/api/1.3/accounts/${account}/workspace/1030000000000000001`,
      );
      expect((await product.serviceRequests()).length).toBe(before);
      // Nothing the first workspace did is listed here.
      await send(page, '/tsai flows');
      await page.locator('.message.ephemeral', { hasText: /no flows|No flows/ }).waitFor();
    });
  },
);
