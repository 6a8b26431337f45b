import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (this file lives in infra/lib/). */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The source file of a route-table handler name such as `auth/login`. */
export const handlerEntry = (handler: string): string => path.join(repoRoot, 'functions/src/handlers', `${handler}.ts`);

/** The built SPA (`npm run build -w web`); deployed only when present at synth time. */
export const webDist = path.join(repoRoot, 'web/dist');

/** The SPA's source page; its inline scripts are copied unchanged into web/dist/index.html by Vite. */
export const webSourceIndexHtml = path.join(repoRoot, 'web/index.html');
