/** The layout matrix (table-matrix.ts) on the desktop screens: 1280×720, 1366×768, 1440×900, in four languages. */
import { matrix, VIEWPORTS } from './table-matrix.ts';

matrix('desktops', VIEWPORTS.slice(0, 3));
