import { resolve } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/*
 * The import boundaries of web/src, as the repo's ESLint config (eslint.config.js) enforces them:
 * shared -> lib/ and components/ -> features/<feature> -> app/.
 */
const eslint = new ESLint({ cwd: resolve(import.meta.dirname, '../..') });

/** The boundary messages ESLint gives `code` as if it were the file at `filePath` (from the repo root). */
async function crossings(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === 'import/no-restricted-paths').map((m) => m.message);
}

describe('import boundaries of web/src', () => {
  it('lib/ and components/ import neither features/ nor app/', async () => {
    expect(await crossings('web/src/lib/probe.ts', "import { RESET_PATH } from '../features/auth/lib/reset-link';")).toEqual([
      expect.stringContaining('lib/ and components/ import neither features/ nor app/'),
    ]);
    expect(await crossings('web/src/lib/probe.ts', "import { routes } from '../app/routes';")).toHaveLength(1);
    expect(await crossings('web/src/components/ui/probe.tsx', "import { formatPrice } from '../../features/billing/lib/price';")).toHaveLength(1);
    // Their own layer and shared are fine.
    expect(await crossings('web/src/lib/probe.ts', "import { Button } from '../components/ui/button';\nimport { STORAGE_KEYS } from '@app/shared/constants';")).toEqual([]);
  }, 30_000);

  it('a feature never imports another feature, statically or lazily', async () => {
    expect(await crossings('web/src/features/auth/lib/probe.ts', "import { formatPrice } from '../../billing/lib/price';")).toEqual([
      expect.stringContaining('A feature never imports another feature'),
    ]);
    expect(await crossings('web/src/features/auth/lib/probe.ts', "export const load = () => import('../../transcribe/lib/format-elapsed');")).toHaveLength(1);
    // Its own modules, lib/, components/ and shared are fine.
    const allowed = [
      "import { RESET_PATH } from './reset-link';",
      "import { api } from '../../../lib/api';",
      "import { Button } from '../../../components/ui/button';",
      "import { STORAGE_KEYS } from '@app/shared/constants';",
    ].join('\n');
    expect(await crossings('web/src/features/auth/lib/probe.ts', allowed)).toEqual([]);
  }, 30_000);

  it('features never import app/; their tests may render them inside it, never inside another feature', async () => {
    expect(await crossings('web/src/features/billing/lib/probe.ts', "import { AppRoutes } from '../../../app/routes';")).toEqual([
      expect.stringContaining('features/ never import app/'),
    ]);
    expect(await crossings('web/src/features/billing/lib/probe.test.ts', "import { AppRoutes } from '../../../app/routes';")).toEqual([]);
    expect(await crossings('web/src/features/billing/lib/probe.test.ts', "import { RESET_PATH } from '../../auth/lib/reset-link';")).toHaveLength(1);
  }, 30_000);

  it('app/ composes anything; shared imports no other workspace', async () => {
    const composing = "import { formatPrice } from '../features/billing/lib/price';\nimport { RESET_PATH } from '../features/auth/lib/reset-link';";
    expect(await crossings('web/src/app/probe.ts', composing)).toEqual([]);
    expect(await crossings('shared/src/probe.ts', "import { api } from '../../web/src/lib/api';")).toEqual([
      expect.stringContaining('shared/ is the bottom layer'),
    ]);
  }, 30_000);
});
