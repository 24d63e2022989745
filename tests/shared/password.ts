import { hashPassword, type ScryptCost } from "../../functions/lib/password";

/**
 * The scrypt cost of the accounts tests make (1 MiB, one pass: about a hundredth of the production cost).
 * A hash carries its cost, so these sign in through the real code path, only faster; the Worker itself
 * always hashes at `passwordCost` (docs/decisions/030-test-infrastructure.md).
 */
export const fixturePasswordCost: ScryptCost = { N: 2 ** 10, r: 8, p: 1 };

export const fixturePasswordHash = (password: string) => hashPassword(password, fixturePasswordCost);
