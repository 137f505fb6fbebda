/**
 * Spanish labels of the app frame and pages (R-LIB-4) — header, menu, tabs, tables.
 * The messages of §5/§8 live in src/lib/messages.ts; these are written once here.
 */
const USER_MENU = 'Menú de usuario';

export const appLabels = {
  userMenu: USER_MENU,
  /** The user menu's name starts with what it shows (the user's name), as WCAG's label-in-name asks. */
  userMenuOf: (nombre: string) => `${nombre} (${USER_MENU})`,
  uploadVideo: 'Subir video',
  manageTags: 'Administrar etiquetas',
  manageUsers: 'Administrar usuarios',
  viewStatistics: 'Ver estadísticas',
  back: 'Volver',
  backToVideos: 'Volver a los videos',
  close: 'Cerrar',
  tabAll: 'Todos',
  tabFavorites: 'Favoritos',
  tabNotSeen: 'No vistos',
  search: 'Buscar',
  videos: 'Videos',
  player: 'Reproductor de video',
  statisticsTitle: 'Datos Generales',
  statisticsTabGeneral: 'General',
  exportDashboard: 'Exportar dashboard',
  noData: 'No se han encontrado datos',
  // The statistics dashboard (R-STAT-2); the spec quotes the title, the tab, the
  // export buttons, 'Página N' and the empty state; the rest are accessible names it leaves open.
  statisticsSummary: 'Resumen',
  viewsPerDayTitle: 'Visualizaciones en los últimos 30 días',
  viewsPerDayShowTable: 'Ver como tabla',
  viewsPerDayDay: 'Día',
  viewsPerDayViews: 'Visualizaciones',
  previousPage: 'Página anterior',
  nextPage: 'Página siguiente',
  pageNumber: (page: number) => `Página ${page}`,
  rowsPerPage: 'Filas por página',
  exportTable: 'Exportar',
  /** A table's 'Exportar' names its table (four buttons of the same text on one page). */
  exportTableOf: (title: string) => `Exportar ${title}`,
} as const;
