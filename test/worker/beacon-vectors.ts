/** Real rounds of drand's quicknet (the League of Entropy's chain), as its relays serve them: the Worker's beacon tests' vectors. */
import type { BeaconRound } from '../../shared/beacon.ts';

export const R1000: BeaconRound = {
  round: 1000,
  signature: 'b44679b9a59af2ec876b1a6b1ad52ea9b1615fc3982b19576350f93447cb1125e342b73a8dd2bacbe47e4b6b63ed5e39',
  randomness: 'fe290beca10872ef2fb164d2aa4442de4566183ec51c56ff3cd603d930e54fdd',
};

export const R657413: BeaconRound = {
  round: 657413,
  signature: 'b713718a38ae728dfd477991af2822e08d2f305e47718cef9f7848ce4050e7be41076862b98fad56e91a6b85b89cd97b',
  randomness: 'fc1873a13f3545aeade8401532ef5519920652eee6b0d2b19ca12643b87b3587',
};
