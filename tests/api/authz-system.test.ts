import { systemCases, authCases, storageCases, shareLinkCases } from "./authz";
import { declareMatrix } from "./authz/matrix";

// The authorization matrix (tests/api/authz/matrix.ts) for the system, auth, storage and share-link routes.
declareMatrix([...systemCases, ...authCases, ...storageCases, ...shareLinkCases]);
