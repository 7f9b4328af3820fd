/** A record the service returned that names a resource (a lookup's, a create's: `OpSuccess.seen`). */
export interface ReturnedRecord {
  id: string;
  name?: string;
  /** A model's workspace. */
  workspace?: string;
}
