import { b } from '../b/index';
import type { C } from '../c/types';
import * as fs from 'fs';
import _ from 'lodash';
export const a = () => b + fs.sep + _;
