import { ssoCases } from "./authz";
import { declareMatrix } from "./authz/matrix";

// The authorization matrix (tests/api/authz/matrix.ts) for the single sign-on routes.
declareMatrix([...ssoCases]);
