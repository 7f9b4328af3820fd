/** The one slash command; manifest.yml must declare the same name (checked by test/manifest.test.ts). */
export const COMMAND_NAME = '/tsai';
