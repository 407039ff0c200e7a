import pad from 'left-pad';
import both from 'both';
import old from 'old';
import { helper } from './util.js';
import { x } from './feature/x.js';
export default [pad, both, old, helper, x];
