import { c } from '../c/index';
export const b = c;
export const helper = 2;
