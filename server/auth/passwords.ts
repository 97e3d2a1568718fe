// Password hashing with argon2id (OWASP parameters: 19 MiB, 2 passes).
import { hash, verify } from '@node-rs/argon2';

/** `Algorithm.Argon2id`: a const enum, which type stripping cannot read. */
const ARGON2ID = 2;

const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export const hashPassword = (password: string) => hash(password, OPTIONS);

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** A real hash to verify against when the account does not exist, so timing does not reveal it. */
let decoyHash: Promise<string> | undefined;
export const decoyPasswordHash = () => (decoyHash ??= hashPassword('terrasight-decoy-password'));
