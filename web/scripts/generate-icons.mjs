/**
 * Renders the app icons (web/public/icons/*.png) from SVG with the system Chromium
 * (playwright-core, no downloaded browser). Run after changing the icon design:
 *   node web/scripts/generate-icons.mjs
 */
import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const out = join(import.meta.dirname, '../public/icons');
const MIC = '<rect x="12" y="6" width="8" height="13" rx="4" fill="#fff"/><path d="M9 15a7 7 0 0 0 14 0M16 22v4M12 26h8" fill="none" stroke="#fff" stroke-width="2" stroke-linecap="round"/>';

/** "any": the rounded tile of the favicon. "maskable": full bleed, the mic inside the 80% safe circle. */
const svg = (purpose) =>
  purpose === 'maskable'
    ? `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" fill="#4f46e5"/><g transform="translate(16 16) scale(0.62) translate(-16 -16)">${MIC}</g></svg>`
    : `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#4f46e5"/>${MIC}</svg>`;

const ICONS = [
  ['icon-192.png', 192, 'any'],
  ['icon-512.png', 512, 'any'],
  ['icon-maskable-192.png', 192, 'maskable'],
  ['icon-maskable-512.png', 512, 'maskable'],
  ['apple-touch-icon.png', 180, 'maskable'],
];

const executablePath = execFileSync('sh', ['-c', 'command -v chromium || command -v chromium-browser'], { encoding: 'utf8' }).trim();
const browser = await chromium.launch({ executablePath, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
try {
  for (const [name, size, purpose] of ICONS) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    await page.setContent(
      `<style>html,body{margin:0;background:transparent}svg{display:block;width:${size}px;height:${size}px}</style>${svg(purpose)}`,
    );
    await writeFile(join(out, name), await page.screenshot({ omitBackground: true, type: 'png' }));
    await page.close();
    console.log(`${name} ${size}x${size} (${purpose})`);
  }
} finally {
  await browser.close();
}
