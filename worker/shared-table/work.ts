/**
 * What the betting and the round loop both work with: the table's parts (state, store, clock,
 * env), its seats and its transfers with the sessions. Each is a part of one SharedTable object.
 */
import type { SharedTableParts } from './parts.ts';
import type { Seats } from './seats.ts';
import type { TableTransfers } from './transfers.ts';

export abstract class TableWork {
  protected readonly p: SharedTableParts;
  protected readonly seats: Seats;
  protected readonly transfers: TableTransfers;

  constructor(parts: SharedTableParts, seats: Seats, transfers: TableTransfers) {
    this.p = parts;
    this.seats = seats;
    this.transfers = transfers;
  }
}
