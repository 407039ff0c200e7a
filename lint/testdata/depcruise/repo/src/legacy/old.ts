import { a } from '../a/index';
export const old = a;
