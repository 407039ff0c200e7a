import { b } from '../y/b';
export const a = b;
