/**
 * Generates an Ed25519 signing key for production (DEPLOY.md "The signing key"):
 *
 *   npx node worker/scripts/keygen.ts [KEY_ID] | npx wrangler secret put SIGNING_KEY
 *
 * The private JWK (d, x, kid) goes to standard output, nothing else, so it can be piped straight
 * into the secret without touching the disk; the public JWK and what to do next go to standard
 * error. KEY_ID defaults to the key's RFC 7638 thumbprint; a dated name ("pb-2026-11") makes
 * rotations easy to follow.
 */
import { generateSigningKey } from '../../shared/index.ts';

const keyId = process.argv[2];
const { key, privateJwk } = await generateSigningKey(keyId);
process.stdout.write(`${JSON.stringify(privateJwk)}\n`);
process.stderr.write(
  [
    `generated Ed25519 signing key "${key.keyId}"`,
    `public JWK: ${JSON.stringify(key.publicJwk)}`,
    'rotation: put the new private JWK in SIGNING_KEY and append the OLD public JWK to RETIRED_PUBLIC_KEYS,',
    'so that receipts signed with it keep verifying (DEPLOY.md "The signing key").',
    '',
  ].join('\n'),
);
