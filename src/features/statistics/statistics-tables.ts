/** The four dashboard tables of SPEC.md §2, with their query-string prefixes (uma_, oma_, vmv_, vmr_). */
export const statisticsTables = [
  { id: 'uma', title: 'Usuarios más activos', columns: ['Usuario', 'Nombre', 'Videos vistos'] },
  { id: 'oma', title: 'Organizaciones con más videos visualizados', columns: ['Organización', 'Videos vistos'] },
  { id: 'vmv', title: 'Videos más visualizados', columns: ['Videos', 'Visualizaciones'] },
  { id: 'vmr', title: 'Videos mejor valorados', columns: ['Videos', 'Puntuación'] },
] as const;
