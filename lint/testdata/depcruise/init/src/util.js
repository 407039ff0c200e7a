import jest from 'jest-ish';
import react from 'react-ish';
import fse from 'fsevents-ish';
import un from 'unlisted';
import typed from 'typed';
import punycode from 'punycode';
import fs from 'node:fs';
export const helper = [jest, react, fse, un, typed, punycode, fs];
