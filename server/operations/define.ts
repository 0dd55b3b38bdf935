// Temporary (issue 32): the request context, the operation declaration and the parameter vocabulary
// moved to server/core/. Only files another helper has open import this still; it goes when they do.
export { callerOf, type Caller, type CallerProfile, type OperationContext, type PageRequest, type ServerServices, type UploadedFile } from '../core/context';
export { DEFAULT_FILE_LIMIT_BYTES, EMPTY_PARAM, defineOperation, type OperationDefinition, type OperationSpec, type RefusedInput } from '../core/operation';
export { objectOf, text, type ParamSchema } from '../core/params';
