import { a } from './index';
import { x } from '../b/index.spec';
a(x);
