// The audit exports `history --audit-log` reads (formats/index.ts lists them, one module a
// family under formats/) and what a caller wants of them (filter.ts), for the callers outside.

export { AUDIT_EXPORTS, AUDIT_FORMATS, exportOf, FORMAT_DESCRIPTIONS, isAuditFormat, oneTimeAnEntry, type AuditFormat } from './formats/index.js';
export { HISTORY_WRITES, TRUNCATED_ANNOTATION, type AuditFilter } from './filter.js';
