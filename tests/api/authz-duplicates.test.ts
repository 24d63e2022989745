import { duplicateCases } from "./authz";
import { declareMatrix } from "./authz/matrix";

// The authorization matrix (tests/api/authz/matrix.ts) for duplicates and look-alikes.
declareMatrix([...duplicateCases]);
