import { x } from './x.js';
export const fixture = x;
