/**
 * The video form's rules (R-ADM-2), shared by the upload wizard (Confirmar) and the edit dialog
 * (Guardar): pure functions, no React. They answer message keys; the UI shows the spec's Spanish
 * text for each key (src/lib/messages.ts, `videoFormMessages`). The server checks the same limits.
 */

export const TITULO_MIN = 3;
export const TITULO_MAX = 100;
export const DESCRIPCION_CORTA_MIN = 3;
export const DESCRIPCION_CORTA_MAX = 255;
export const DESCRIPCION_MIN = 3;
export const DESCRIPCION_MAX = 1024;

/** What the form holds. `descripcion` may be blank (it is optional); tags are ids. */
export interface VideoFormValues {
  titulo: string;
  descripcionCorta: string;
  descripcion: string;
  tags: number[];
  isVisible: boolean;
}

/**
 * required: '* Este campo es obligatorio'; tooLong / tooShort: the limit messages of the title;
 * optionalTooShort: '* Si este campo es informado, no puede contener menos de 3 carácteres'.
 */
export type VideoFieldError =
  | { key: 'required' }
  | { key: 'tooLong'; max: number }
  | { key: 'tooShort'; min: number }
  | { key: 'optionalTooShort'; min: number };

export type VideoFormErrors = Partial<Record<'titulo' | 'descripcionCorta' | 'descripcion', VideoFieldError>>;

/** Blank means empty or only whitespace (R-ADM-2); lengths count the text without spaces at either end. */
const isBlank = (text: string) => text.trim() === '';

function required(text: string, min: number, max: number): VideoFieldError | undefined {
  if (isBlank(text)) return { key: 'required' };
  const length = [...text.trim()].length;
  if (length > max) return { key: 'tooLong', max };
  if (length < min) return { key: 'tooShort', min };
  return undefined;
}

function optional(text: string, min: number, max: number): VideoFieldError | undefined {
  if (isBlank(text)) return undefined;
  const length = [...text.trim()].length;
  if (length > max) return { key: 'tooLong', max };
  if (length < min) return { key: 'optionalTooShort', min };
  return undefined;
}

/** The failing fields (empty when the form may be sent). */
export function validateVideoForm(values: VideoFormValues): VideoFormErrors {
  const errors: VideoFormErrors = {};
  const titulo = required(values.titulo, TITULO_MIN, TITULO_MAX);
  const descripcionCorta = required(values.descripcionCorta, DESCRIPCION_CORTA_MIN, DESCRIPCION_CORTA_MAX);
  const descripcion = optional(values.descripcion, DESCRIPCION_MIN, DESCRIPCION_MAX);
  if (titulo) errors.titulo = titulo;
  if (descripcionCorta) errors.descripcionCorta = descripcionCorta;
  if (descripcion) errors.descripcion = descripcion;
  return errors;
}

export const isValidVideoForm = (values: VideoFormValues): boolean => Object.keys(validateVideoForm(values)).length === 0;
