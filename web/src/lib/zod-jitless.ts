import * as z from 'zod';

/**
 * zod without its eval-compiled fast path, which the Content-Security-Policy forbids (no
 * 'unsafe-eval'): even its probe for eval is reported as a policy violation. Object schemas read
 * this setting when they are built, so main.tsx imports this module before anything else.
 */
z.config({ jitless: true });
