import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, screenshot, startProduct, type RunningProduct } from './harness.ts';

let product: RunningProduct;
let browser: Browser;

beforeAll(async () => {
  product = await startProduct();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

describe('stopping', () => {
  it('on SIGTERM it finishes, closes the database cleanly (no WAL left behind) and exits 0', async () => {
    const other = await startProduct();
    const res = await fetch(`${other.url}/api/health`);
    expect(res.status).toBe(200);
    const db = path.join(other.dataDir, 'tao.sqlite');
    expect(fs.existsSync(`${db}-wal`)).toBe(true);
    const code = await other.stop({ keepData: true });
    expect(code).toBe(0);
    expect(fs.existsSync(db)).toBe(true);
    expect(fs.existsSync(`${db}-wal`)).toBe(false);
    fs.rmSync(other.dataDir, { recursive: true, force: true });
  });
});

describe('the product, served as `npm start` serves it', () => {
  it('prints the first-administrator registration link on a fresh database', () => {
    expect(product.firstAdminLink(), product.output()).toMatch(/\/register\?invitation=/);
  });

  it('shows the login page with the title in Chromium', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(product.url + '/');
    await page.getByText('Contenido audiovisual TAO').first().waitFor();
    await expect(page.getByRole('button', { name: 'Entrar' }).isVisible()).resolves.toBe(true);
    await screenshot(page, 'login');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows 404 Página no encontrada for an unknown path', async () => {
    const page = await browser.newPage();
    await page.goto(product.url + '/no-such-page');
    await page.getByText('Página no encontrada').waitFor();
    await expect(page.getByText('404', { exact: true }).isVisible()).resolves.toBe(true);
    await screenshot(page, 'not-found');
    await page.close();
  });

  it('serves hashed assets with long-lived caching and index.html without', async () => {
    const html = await fetch(product.url + '/videos');
    expect(html.headers.get('cache-control')).toBe('no-cache');
    const text = await html.text();
    const asset = text.match(/\/assets\/[^"]+\.js/)?.[0];
    expect(asset).toBeDefined();
    const res = await fetch(product.url + asset);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toContain('immutable');
  });
});
