import { benchConvergence } from './convergence-bench.js';
import { renderSection } from './section.js';
const s = await benchConvergence();
console.log(renderSection(s, 3));
