import type { TableLimits } from '../../table.ts';

/**
 * The loosest limits a bet may meet when the commitment carries none: positive multiples of 20
 * minor units (so that 19:20 pays a whole amount) and the table rules of table.ts.
 */
export const LOOSEST_LIMITS: Readonly<TableLimits> = { min: 20, max: Number.MAX_SAFE_INTEGER - (Number.MAX_SAFE_INTEGER % 20), step: 20, chips: [] };
