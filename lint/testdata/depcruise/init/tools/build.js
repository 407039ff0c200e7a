import jest from 'jest-ish';
import pad from 'left-pad';
export default [jest, pad];
