import { resolve } from 'node:path';
import { webDist } from './web-build.ts';

/**
 * Builds the journeys' web app (webDist) ahead of them: `npm test` makes it beside the unit
 * suites, at a low CPU priority, and hands it to the journeys in E2E_WEB_DIST.
 */
console.log(`the journeys' web app: ${await webDist(resolve(import.meta.dirname, '..'))}`);
