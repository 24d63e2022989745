import { udwfCases } from "./authz";
import { declareMatrix } from "./authz/matrix";

// The authorization matrix (tests/api/authz/matrix.ts) for automations.
declareMatrix([...udwfCases]);
