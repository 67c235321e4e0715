/**
 * The Worker's entry (wrangler.toml `main`): the fetch handler, which is the HTTP API of
 * http/app.ts, and the Durable Object classes wrangler.toml binds, one room each:
 *
 * - `Table` (session/): one player's private table session, pb-fair-2;
 * - `SharedTable` (shared-table/): one shared table, pb-shared-1, its players by WebSocket through
 *   `SharedTableRelay`s (shared-table/relay.ts), each holding up to 1,000 of its sockets;
 * - `Client` (session/client.ts): one per client address, creating sessions;
 * - `KeyStore` (keys/): the development signing key; `Ledger` (ledger/): the operator's figures;
 * - `Operator` (operator/): one per wallet-mode operator: its launch tokens, nonces and sessions.
 */
import type { Env } from './config/env.ts';
import { app } from './http/app.ts';

export { KeyStore } from './keys/keys.ts';
export { Ledger } from './ledger/ledger.ts';
export { Operator } from './operator/operator.ts';
export { Client } from './session/client.ts';
export { Table } from './session/table.ts';
export { SharedTable } from './shared-table/shared-table.ts';
export { SharedTableRelay } from './shared-table/relay.ts';

export default {
  fetch: app.fetch,
} satisfies ExportedHandler<Env>;
