export * from "./users";
export * from "./sessions";
export * from "./login-attempts";
export * from "./events";
export * from "./access-rules";
