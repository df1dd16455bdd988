// The shape of the message table (types.generated.ts): its own module, so that the generated table
// and the code reading it (schema.ts) both depend on it and not on each other.

/** [json name, field number, type, flags?, protobuf name?]; see the header of types.generated.ts. */
type FieldRow = readonly [json: string, number: number, type: string, flags?: string, proto?: string];
export type MessageTable = Readonly<Record<string, readonly FieldRow[]>>;
