/** An error with a machine-readable code (the `code` of the error events and responses). */
export class CodedError<C extends string = string> extends Error {
  readonly code: C;
  constructor(code: C, message: string) {
    super(message);
    this.name = new.target.name;
    this.code = code;
  }
}
