import { config } from 'zod/v4/core';

/**
 * zod without its eval-compiled fast path, which the Content-Security-Policy forbids (no
 * 'unsafe-eval'): even its probe for eval is reported as a policy violation. Object schemas read
 * this setting when they are built, so the web build resolves every `import ... from 'zod'` to
 * this module (vite.config.ts): zod is set up before the first schema, and loads only with the
 * first code that uses it (never in the home page's first load).
 */
config({ jitless: true });

export * from 'zod/v4';
export { default } from 'zod/v4';
