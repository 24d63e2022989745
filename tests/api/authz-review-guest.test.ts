import { reviewGuestCases } from "./authz/review-guest";
import { declareMatrix } from "./authz/matrix";

// The authorization matrix (tests/api/authz/matrix.ts) for review links' guests.
declareMatrix([...reviewGuestCases]);
