import { wopiCases } from "./authz";
import { declareMatrix } from "./authz/matrix";

// The authorization matrix (tests/api/authz/matrix.ts) for the WOPI host.
declareMatrix([...wopiCases]);
