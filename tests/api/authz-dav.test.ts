import { davCases } from "./authz";
import { declareMatrix } from "./authz/matrix";

// The authorization matrix (tests/api/authz/matrix.ts) for WebDAV under /dav/.
declareMatrix(davCases);
