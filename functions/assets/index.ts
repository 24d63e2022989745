import { createApp } from "../lib/openapi";
import classRoutes from "./classes";
import contentRoutes from "./content-routes";
import extraRoutes from "./extra-routes";
import assetRoutes from "./routes";

/**
 * /api/asset, its routes with full paths in ./contract.ts: static paths (content/…, class/…, create, …) are mounted
 * before /asset/{id}.
 */
const app = createApp();
app.route("/", contentRoutes);
app.route("/", classRoutes);
app.route("/", extraRoutes);
app.route("/", assetRoutes);

export default app;
