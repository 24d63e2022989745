import { uploadCases, taskCases } from "./authz";
import { declareMatrix } from "./authz/matrix";

// The authorization matrix (tests/api/authz/matrix.ts) for the upload and task routes.
declareMatrix([...uploadCases, ...taskCases]);
