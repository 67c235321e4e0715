/** The layout matrix (table-matrix.ts) on the phone screens, upright and sideways: 390×844, 844×390, 360×640, 640×360, in four languages. */
import { matrix, VIEWPORTS } from './table-matrix.ts';

matrix('phones', VIEWPORTS.slice(3));
