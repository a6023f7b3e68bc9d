/** Injection tokens of the configuration module (interfaces have no runtime class to inject by). */
export const HELIOS_CONFIG = Symbol('HELIOS_CONFIG');
/** The environment the server was started with (tests pass their own; production passes process.env). */
export const PROCESS_ENV = Symbol('PROCESS_ENV');
