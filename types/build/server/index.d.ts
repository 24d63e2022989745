// The Remix server build that worker.ts imports (./build/server/index.js, made by `npm run build`), declared here
// so that `npm run typecheck` works before a build: tsconfig's rootDirs lets ./build resolve to this directory.
import type { ServerBuild } from "@remix-run/cloudflare";

export declare const mode: ServerBuild["mode"];
export declare const entry: ServerBuild["entry"];
export declare const routes: ServerBuild["routes"];
export declare const assets: ServerBuild["assets"];
export declare const basename: ServerBuild["basename"];
export declare const publicPath: ServerBuild["publicPath"];
export declare const assetsBuildDirectory: ServerBuild["assetsBuildDirectory"];
export declare const future: ServerBuild["future"];
export declare const isSpaMode: ServerBuild["isSpaMode"];
