import { useState } from 'react';
// Defines <punto-banco-table> once, in the browser (on a server it defines nothing).
import 'punto-banco';
// React 19 JSX for the tag: its attributes, properties and `onpb-…` events with their detail types.
import type {} from 'punto-banco/react';
import { endpoint } from './endpoint.ts';

export function App() {
  const [last, setLast] = useState('No round yet');

  return (
    <main>
      <h1>Punto Banco in React</h1>
      <punto-banco-table
        endpoint={endpoint}
        room="hall-1"
        // React 19 listens to `pb-round-settled` for `onpb-round-settled`; e.detail is the signed record of the round.
        onpb-round-settled={(e) => {
          const body = e.detail.body;
          // A private table's receipt (a shared table, `table="…"`, sends the player's settlement).
          if (body.type !== 'receipt') return;
          setLast(`Round ${body.round}: ${body.outcome} (Player ${body.playerTotal}, Banker ${body.bankerTotal}), balance ${body.balanceAfter}`);
        }}
      />
      <p data-testid="last-round" aria-live="polite">
        {last}
      </p>
    </main>
  );
}
