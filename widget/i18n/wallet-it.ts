/** Italian strings of wallet mode; keys as in wallet-en.ts. */
import type { Catalog } from './en.ts';

export const walletIt: Catalog['wallet'] = {
  pending: 'Pagamento in corso',
  pendingDetail: '{{amount}} in arrivo sul tuo saldo del casinò',
  pendingHint:
    'Il portafoglio del casinò non ha ancora confermato questo pagamento. Viene ritentato finché non lo conferma; il saldo mostrato è quello del portafoglio.',
  owedDetail: '{{amount}} dal tavolo condiviso in arrivo sul tuo saldo',
  owedHint:
    'Il tavolo non ha ancora accreditato questa somma sul tuo saldo. Verrà accreditata una sola volta, appena la tua sessione risponde; il saldo mostrato non la include ancora.',
  realityCheck: {
    title: 'Verifica di realtà',
    body: 'Stai giocando da {{time}}. Ecco la tua sessione finora.',
    played: 'Tempo di gioco',
    net: 'Risultato netto',
    wagered: 'Puntato',
    minutes: '{{minutes}} min',
    continue: 'Continua a giocare',
    stop: 'Smetti di giocare',
    blocked: 'Rispondi alla verifica di realtà per continuare a puntare.',
  },
  ended: {
    title: 'La tua sessione è terminata',
    session_time_limit: 'Hai raggiunto il limite di tempo che hai fissato per questa sessione.',
    player_stopped: 'Hai scelto di smettere di giocare.',
    self_exclusion: 'Il tuo casinò ha chiuso il tuo conto al gioco (autoesclusione).',
    operator_ended: 'Il tuo casinò ha terminato questa sessione.',
    back: 'Torna al casinò',
    settled: 'Le mani già accettate vengono regolate e pagate sul saldo del casinò.',
  },
  errors: {
    launch_token_unknown: 'Questo link di gioco non è valido. Riapri il gioco dal tuo casinò.',
    launch_token_used: 'Questo link di gioco è già stato usato. Riapri il gioco dal tuo casinò.',
    launch_token_expired: 'Questo link di gioco è scaduto. Riapri il gioco dal tuo casinò.',
    launch_wrong_operator: 'Questo link di gioco appartiene a un altro casinò. Riapri il gioco dal tuo casinò.',
    insufficient_funds: 'Il tuo saldo del casinò non copre questa puntata.',
    limit_reached: 'I limiti del tuo casinò non consentono questa puntata.',
    player_blocked: 'Il tuo conto del casinò al momento non può giocare.',
    unknown_player: 'Il tuo casinò non conosce questo conto di gioco.',
    wrong_currency: 'Il tuo conto del casinò è in una valuta diversa da quella del tavolo.',
    wallet_unavailable: 'Il portafoglio del casinò non ha risposto. La puntata non è stata accettata e non è stato addebitato nulla: riprova.',
    shared_table_currency:
      'Le puntate di questo tavolo condiviso sono fuori dai tuoi limiti nella valuta del casinò: gioca al tuo tavolo o a un tavolo di un’altra sala.',
    stake_limit: 'Queste puntate superano il tuo limite di puntata per mano.',
    loss_limit: 'Perdere queste puntate potrebbe superare il tuo limite di perdita per la sessione.',
    wager_limit: 'Queste puntate supererebbero il tuo limite di puntate per la sessione.',
    reality_check_pending: 'Rispondi alla verifica di realtà prima della prossima puntata.',
    session_ended: 'La tua sessione è terminata: non si accettano altre puntate.',
  },
};
