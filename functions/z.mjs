import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
const z = new ZxcvbnFactory({ dictionary: { ...common.dictionary }, graphs: common.adjacencyGraphs });
for (const p of process.argv.slice(2)) { const r = z.check(p); console.log(p, r.score, r.guessesLog10.toFixed(1), r.feedback.warning); }
