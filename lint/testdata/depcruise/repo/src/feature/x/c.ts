import { a } from './a';
import { helper } from '../../b/index';
export const c = a + helper;
