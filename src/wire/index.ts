export * from './common.js';
export * from './requests.js';
export * from './responses.js';
