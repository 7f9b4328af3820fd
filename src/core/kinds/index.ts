/**
 * The kinds the shipped operations are declared with: of argument (what a command and a form take), of
 * output (what a finished operation yields) and of resource (what the catalog knows by name). Each is a
 * module of its own; a new one is one more, which an entry names where it uses it (docs/architecture.md,
 * "Adding an operation").
 */
export { ID } from './arguments/id.js';
export { IDS } from './arguments/ids.js';
export { NAMES } from './arguments/names.js';
export { RANGE } from './arguments/range.js';
export { TEXT } from './arguments/text.js';
export { WORD } from './arguments/word.js';
export { FLAG } from './outputs/flag.js';
export { ID_OUTPUT } from './outputs/id.js';
export { RANGE_OUTPUT } from './outputs/range.js';
export { RESOURCE } from './outputs/resource.js';
export { RESOURCES } from './outputs/resources.js';
export { TEXT_OUTPUT } from './outputs/text.js';
export * from './resources.js';
