import type { X } from '../ui/view';
export type C = number;
