import { a } from '../a/index';
export type X = string;
export async function load() { return import('../b/index'); }
const m = require('./missing');
import('../shared/v');
export const v = a;
