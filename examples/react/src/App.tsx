import { useState } from 'react';
// Defines <punto-banco-table> once, in the browser; on a server it only brings the types.
import 'punto-banco';
import { endpoint } from './endpoint.ts';

export function App() {
  const [last, setLast] = useState('No round yet');

  return (
    <main>
      <h1>Punto Banco in React</h1>
      <punto-banco-table
        endpoint={endpoint}
        room="hall-1"
        // React 19 listens to `pb-round-settled` for `onpb-round-settled`; e.detail is the signed receipt.
        onpb-round-settled={(e) => {
          const { round, outcome, playerTotal, bankerTotal, balanceAfter } = e.detail.body;
          setLast(`Round ${round}: ${outcome} (Player ${playerTotal}, Banker ${bankerTotal}), balance ${balanceAfter}`);
        }}
      />
      <p data-testid="last-round" aria-live="polite">
        {last}
      </p>
    </main>
  );
}
