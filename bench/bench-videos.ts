/**
 * One generated `videos` row, as the list benchmarks fill their libraries: the same texts, duration,
 * visibility and ratings drawn from the caller's seeded random source, so both libraries look alike.
 */
export interface BenchVideoShape {
  /** `id_externo`, before the zero-padded index */
  id: string;
  /** drawn in place, so the random source is read in the same order as before */
  organizacion: () => string | null;
  fechaAlta: () => string;
  at: string;
}

export function benchVideoRow(next: () => number, sentence: (words: number) => string, i: number, shape: BenchVideoShape) {
  const ratings = Math.floor(next() * 6);
  return {
    id_externo: shape.id,
    titulo: `${sentence(3)} ${i}`.slice(0, 100),
    descripcion: next() < 0.7 ? sentence(25) : null,
    descripcion_corta: sentence(10),
    duracion: Math.round(next() * 3600),
    organizacion: shape.organizacion(),
    nombre_usuario_alta: 'admin',
    is_visible: (next() < 0.9 ? 1 : 0) as 0 | 1,
    has_thumbnail: 1 as const,
    has_preview: 1 as const,
    rating_count: ratings,
    rating_sum: Array.from({ length: ratings }, () => 1 + Math.floor(next() * 5)).reduce((a, b) => a + b, 0),
    fecha_alta: shape.fechaAlta(),
    updated_at: shape.at,
  };
}
