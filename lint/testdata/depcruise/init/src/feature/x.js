import { helper } from '../util.js';
import missing from './missing.js';
import { fixture } from './x.spec.js';
export const x = [helper, missing, fixture];
