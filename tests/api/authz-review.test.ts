import { reviewCases } from "./authz";
import { declareMatrix } from "./authz/matrix";

// The authorization matrix (tests/api/authz/matrix.ts) for review and approval.
declareMatrix([...reviewCases]);
