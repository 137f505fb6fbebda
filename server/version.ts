import fs from 'node:fs';
import path from 'node:path';
import { rootDir } from './config.ts';

export const version: string = (JSON.parse(fs.readFileSync(path.join(rootDir, 'package.json'), 'utf8')) as { version: string }).version;
