/** A message to a parse worker. */
export interface ParseRequest {
  id: number;
  text: string;
  source: string;
}
