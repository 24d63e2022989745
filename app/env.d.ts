/// <reference types="vite/client" />

/** Unique id of this build, injected by vite.config.ts; the same value is in /version.json. */
declare const __BUILD_ID__: string;
/** package.json version of this build. */
declare const __APP_VERSION__: string;
