/**
 * The tag form's rules (R-TAG-2: required, at least 3 characters; blank means empty
 * or only whitespace) and openapi.yaml's upper limit (`EtiquetaNombre`, 50). Lengths count the name
 * without the spaces at either end, in characters, as the server does.
 */

export const TAG_NOMBRE_MIN = 3;
export const TAG_NOMBRE_MAX = 50;

export type TagNombreError = { key: 'required' } | { key: 'tooShort'; min: number } | { key: 'tooLong'; max: number };

/** What is wrong with a name, or null when it may be sent. */
export function validateTagNombre(nombre: string): TagNombreError | null {
  const trimmed = nombre.trim();
  if (trimmed === '') return { key: 'required' };
  const length = [...trimmed].length;
  if (length < TAG_NOMBRE_MIN) return { key: 'tooShort', min: TAG_NOMBRE_MIN };
  if (length > TAG_NOMBRE_MAX) return { key: 'tooLong', max: TAG_NOMBRE_MAX };
  return null;
}
