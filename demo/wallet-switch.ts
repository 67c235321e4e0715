/**
 * The demo page's "real wallet" switch, for development only: shown on a loopback host (`npm start`),
 * where the Worker has the development operator `demo` (secret `dev-demo-secret`, wallet
 * http://127.0.0.1:8788, run with `npx punto-banco wallet --secret dev-demo-secret`). Switched on,
 * the page does what a casino's back end does: it signs a launch for the player with the operator's
 * secret (`signLaunchRequest`, WALLET.md "The launch"), posts it to the Worker and gives the token to
 * the table (`launch-token`); it then shows the wallet's own balance and transactions as they move
 * (`GET /players/:id` of the reference wallet). The secret is in the page because it is the
 * development operator's, known to everyone and configured nowhere but on a development Worker: a
 * real casino signs on its server. (A Worker route that launched without a signature would be a
 * way to open sessions for any player should it ever be deployed; signing here keeps the one
 * launch path the Worker has.) Built into dist/wallet-switch.js by scripts/build.ts.
 */
import { formatMoney } from '../shared/wallet/currency.ts';
import { signLaunchRequest } from '../shared/wallet/launch.ts';
import { LANGUAGES, type Language } from '../shared/languages.ts';
import { isRoomId } from '../shared/table.ts';

const DEV_OPERATOR = { id: 'demo', secret: 'dev-demo-secret', wallet: 'http://127.0.0.1:8788' };
const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];

interface WalletPlayer {
  currency: string;
  balance: number;
  transactions: { id: string; kind: string; amount: number; state: string }[];
}

const byId = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;

function start(): void {
  const card = document.getElementById('wallet-switch');
  const found = document.getElementById('table');
  if (!card || !found || !LOOPBACK.includes(location.hostname)) return;
  const table: HTMLElement = found;
  card.hidden = false;
  const on = byId<HTMLInputElement>('wallet-on');
  const currency = byId<HTMLSelectElement>('wallet-currency');
  const player = byId<HTMLInputElement>('wallet-player');
  const status = byId<HTMLElement>('wallet-status');
  const balance = byId<HTMLOutputElement>('wallet-balance');
  const list = byId<HTMLUListElement>('wallet-tx');
  let timer: ReturnType<typeof setInterval> | null = null;

  const lang = (): Language => {
    const l = table.getAttribute('lang') ?? 'en';
    return (LANGUAGES as readonly string[]).includes(l) ? (l as Language) : 'en';
  };

  async function showWallet(): Promise<void> {
    try {
      const answer = await fetch(`${DEV_OPERATOR.wallet}/players/${encodeURIComponent(player.value)}`);
      if (!answer.ok) return;
      const p = (await answer.json()) as WalletPlayer;
      balance.value = formatMoney(p.balance, p.currency, lang());
      list.replaceChildren(
        ...p.transactions.slice(-5).map((t) => {
          const li = document.createElement('li');
          li.textContent = `${t.kind} ${formatMoney(t.amount, p.currency, lang())} · ${t.state}`;
          return li;
        }),
      );
    } catch {
      status.textContent = `The wallet at ${DEV_OPERATOR.wallet} does not answer: run npx punto-banco wallet --secret ${DEV_OPERATOR.secret}`;
    }
  }

  async function launch(): Promise<void> {
    status.textContent = 'Launching…';
    const room = table.getAttribute('room') ?? 'hall-1';
    const nonce = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
    const signed = await signLaunchRequest(
      DEV_OPERATOR.id,
      DEV_OPERATOR.secret,
      {
        playerId: player.value,
        currency: currency.value,
        lang: lang(),
        room: isRoomId(room) ? room : 'hall-1',
        limits: { realityCheckMinutes: 5 },
        returnUrl: location.href,
      },
      Date.now(),
      nonce,
    );
    const answer = await fetch('/api/operator/launch', { method: 'POST', headers: signed.headers, body: signed.body });
    const body = (await answer.json().catch(() => null)) as { token?: string; error?: { code: string; message: string } } | null;
    if (!answer.ok || typeof body?.token !== 'string') {
      status.textContent = `The Worker refused the launch: ${body?.error?.code ?? answer.status} ${body?.error?.message ?? ''}`;
      on.checked = false;
      return;
    }
    table.setAttribute('operator', DEV_OPERATOR.id);
    table.setAttribute('launch-token', body.token);
    status.textContent = `Playing ${player.value}'s ${currency.value} from the wallet (a reality check every 5 minutes).`;
    await showWallet();
    timer ??= setInterval(() => void showWallet(), 2000);
  }

  function stop(): void {
    if (timer !== null) clearInterval(timer);
    timer = null;
    table.removeAttribute('launch-token');
    table.removeAttribute('operator');
    status.textContent = 'Play money.';
  }

  on.addEventListener('change', () => (on.checked ? void launch() : stop()));
  // A new currency or player is a new launch.
  for (const input of [currency, player]) input.addEventListener('change', () => on.checked && void launch());
  table.addEventListener('pb-round-settled', () => on.checked && void showWallet());
}

start();
