import { fieldCases } from "./authz";
import { declareMatrix } from "./authz/matrix";

// The authorization matrix (tests/api/authz/matrix.ts) for the field and list routes.
declareMatrix([...fieldCases]);
