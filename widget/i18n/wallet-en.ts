/**
 * English strings of wallet mode (a session launched by a casino, its money in the casino's
 * wallet): the payout still owed (and what a shared table still owes the session, in any mode),
 * the reality check, the session's end and every refusal the launch, the wallet and the player's
 * limits can give. Every other language has exactly these keys.
 */
export const walletEn = {
  pending: 'Payout pending',
  pendingDetail: '{{amount}} on its way to your casino balance',
  pendingHint: 'The casino’s wallet has not confirmed this payment yet. It is retried until it does; the balance shown is the wallet’s own.',
  owedDetail: '{{amount}} from the shared table on its way to your balance',
  owedHint: 'The table has not paid this into your balance yet. It is paid once, as soon as your session answers; the balance shown does not include it yet.',
  realityCheck: {
    title: 'Reality check',
    body: 'You have been playing for {{time}}. Here is your session so far.',
    played: 'Time played',
    net: 'Net result',
    wagered: 'Wagered',
    minutes: '{{minutes}} min',
    continue: 'Continue playing',
    stop: 'Stop playing',
    blocked: 'Answer the reality check to go on betting.',
  },
  ended: {
    title: 'Your session has ended',
    session_time_limit: 'You reached the time limit you set for this session.',
    player_stopped: 'You chose to stop playing.',
    self_exclusion: 'Your casino has closed your account to play (self-exclusion).',
    operator_ended: 'Your casino has ended this session.',
    back: 'Back to the casino',
    settled: 'Rounds already accepted are settled and paid to your casino balance.',
  },
  errors: {
    launch_token_unknown: 'This game link is not valid. Open the game again from your casino.',
    launch_token_used: 'This game link has been used already. Open the game again from your casino.',
    launch_token_expired: 'This game link has expired. Open the game again from your casino.',
    launch_wrong_operator: 'This game link belongs to another casino. Open the game again from your casino.',
    insufficient_funds: 'Your casino balance does not cover this bet.',
    limit_reached: 'Your casino’s limits do not allow this bet.',
    player_blocked: 'Your casino account may not play at the moment.',
    unknown_player: 'Your casino does not know this player account.',
    wrong_currency: 'Your casino account is in another currency than this table.',
    wallet_unavailable: 'Your casino’s wallet did not answer. Your bet was not taken and nothing was charged: try again.',
    shared_table_currency:
      'This shared table’s stakes are outside your limits in your casino’s currency: play at your own table, or at a table of another room.',
    stake_limit: 'These bets are over your stake limit per round.',
    loss_limit: 'Losing these bets could take you past your loss limit for this session.',
    wager_limit: 'These bets would take you past your wager limit for this session.',
    reality_check_pending: 'Answer the reality check before your next bet.',
    session_ended: 'Your session has ended: no more bets are taken.',
  },
} as const;
