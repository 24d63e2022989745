import { passwordCost } from "../../functions/lib/password";
import { fixturePasswordCost } from "../shared/password";

// In the shared runtimes the Worker hashes new passwords (accounts, link passwords, the decoy of an unknown login)
// at the fixtures' scrypt cost: at the production cost they took a third of the API suite's CPU. It is the same
// code path with a smaller N and p. password-cost.test.ts runs in a runtime of its own, without this file, and checks
// that the Worker's own cost is the production one (docs/decisions/030-test-infrastructure.md).
Object.assign(passwordCost, fixturePasswordCost);
