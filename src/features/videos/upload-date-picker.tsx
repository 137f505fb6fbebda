import '@mantine/dates/styles.css';
import 'dayjs/locale/es';
import { DatePicker } from '@mantine/dates';
import { libraryMessages } from '../../lib/messages.ts';

/**
 * The calendar of the upload-date filter's 'es despues de' (R-LIB-9). Its code (@mantine/dates and
 * dayjs, about 13 KB gzip) is a chunk of its own, fetched when the upload-date popover opens: most
 * visits to the list never choose a day (docs/decisions/0052-first-screen-budget-and-code-splitting.md).
 */
export function UploadDatePicker({ after, maxDate, onChoose }: { after: string | null; maxDate: string; onChoose: (day: string) => void }) {
  return (
    <DatePicker
      aria-label={libraryMessages.chooseDay}
      locale="es"
      firstDayOfWeek={1}
      maxDate={maxDate}
      // Every shown day readable (WCAG AA, R-A11Y-1): no faded days of the next and previous
      // months, no weekend in Mantine's light red (3.3:1 on white).
      hideOutsideDates
      weekendDays={[]}
      value={after}
      defaultDate={after ?? undefined}
      ariaLabels={libraryMessages.calendar}
      onChange={(day) => {
        if (day) onChoose(day);
      }}
    />
  );
}
