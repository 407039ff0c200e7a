export { a } from '../a/index';
export const c = 1;
