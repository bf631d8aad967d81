/** An answer of the API: status and JSON body. */
export interface ApiAnswer {
  readonly status: number;
  readonly body: unknown;
}
