/** The room a table opens in when nobody names one: Hall 1, the smallest limits (RULES.md). */
import type { RoomId } from './table.ts';

export const DEFAULT_ROOM: RoomId = 'hall-1';
