// The whole "build" of a plain page: the page, and the package's loader with its chunks next to it.
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';

const loader = createRequire(import.meta.url).resolve('punto-banco/cdn/punto-banco-table.js');
rmSync('dist', { recursive: true, force: true });
mkdirSync('dist');
cpSync('index.html', 'dist/index.html');
cpSync(loader, 'dist/punto-banco-table.js');
cpSync(join(dirname(loader), 'chunks'), 'dist/chunks', { recursive: true });
